package enforce

import (
	"fmt"
	"slices"
	"strings"
)

// Every reader's and writer's options, as its manual and --help list them
// (GNU coreutils 9, grep 3, diffutils 3, util-linux 2.39, gzip, xz,
// zstd, binutils, gettext; BSD and macOS letters added where they
// differ). Under patterns an option a program's table does not list is
// refused (optionsUnknown): one bn has not read may write a file or run
// a program, as each attacker's pass found of another. The tables only
// list; what an option does (writes, refuse) is said where the program
// is defined, and those entries come first.
//
// Where GNU and BSD differ on whether a letter takes a value (ls -I, -T
// and -w, stat -f and -t), the table has it take none: a word after it is
// then read as an option too, and refused if unknown, where the other
// reading would pass over an option the program reads.
//
// A table is getopt's: shorts as an optstring ("n:" takes a value, "i::"
// one only glued on), longs by name ("lines=" takes a value, "color[=]"
// one only after '='). Long options are found by any unambiguous prefix
// and short ones in clusters, as GNU getopt reads them (parseOpts).
var optionTables = []optionTable{
	{"ls", "1ABCDFGHILNOPQRSTUWXZabcdefghiklmnopqrstuvwxy%,@",
		"all almost-all author block-size= classify[=] color[=] context dereference dereference-command-line dereference-command-line-symlink-to-dir directory dired escape file-type format= full-time group-directories-first hide= hide-control-chars human-readable hyperlink[=] ignore= ignore-backups indicator-style= inode kibibytes literal no-group numeric-uid-gid quote-name quoting-style= recursive reverse show-control-chars si size sort= tabsize= time= time-style= width= zero"},
	{"cat", "AETbelnstuv", "number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank"},
	{"zcat", "S:cdfhlLnNqrtvV", "force list quiet recursive suffix= synchronous test verbose stdout decompress uncompress"},
	{"head", "0123456789c:n:qvz", "bytes= lines= quiet silent verbose zero-terminated"},
	{"tail", "0123456789Fbc:fn:qrs:vz", "bytes= follow[=] lines= max-unchanged-stats= pid= quiet retry silent sleep-interval= verbose zero-terminated debug"},
	{"wc", "Lclmw", "bytes chars files0-from= lines max-line-length words total= debug"},
	{"cut", "b:c:d:f:nswz", "bytes= characters= complement delimiter= fields= only-delimited output-delimiter= zero-terminated"},
	{"tr", "Ccdstu", "complement delete squeeze-repeats truncate-set1"},
	{"nl", "b:d:f:h:i:l:n:ps:v:w:", "body-numbering= footer-numbering= header-numbering= join-blank-lines= line-increment= no-renumber number-format= number-separator= number-width= section-delimiter= starting-line-number="},
	{"od", "A:N:S:abcdDefFhHiIj:lLoOst:vw::xX",
		"address-radix= endian= format= output-duplicates read-bytes= skip-bytes= strings[=] traditional width[=]"},
	{"hexdump", "bcCdoxL::e:f:n:s:v", "one-byte-octal one-byte-char canonical two-bytes-decimal two-bytes-octal two-bytes-hex color[=] format= format-file= length= skip= no-squeezing"},
	{"stat", "FLc:flnqrstx", "cached= dereference file-system format= printf= terse"},
	{"du", "0AB:DHILPSX:abcd:ghklmnrst:x", "all apparent-size block-size= bytes count-links dereference dereference-args exclude= exclude-from= files0-from= human-readable inodes max-depth= no-dereference null one-file-system separate-dirs si summarize threshold= time[=] time-style= total"},
	{"df", "B:HPTYabcghiklmnt:vx:", "all block-size= exclude-type= human-readable inodes local no-sync output[=] portability print-type si sync total type="},
	{"pwd", "LP", "logical physical"},
	{"which", "ais", "all skip-dot skip-tilde show-dot show-tilde tty-only read-alias skip-alias read-functions skip-functions"},
	{"whereis", "BMSbfglmsu", ""},
	{"type", "afpPt", ""},
	{"id", "AFGPZagnpruz", "context group groups name real user zero"},
	{"whoami", "", ""},
	{"uname", "aimnoprsv", "all hardware-platform kernel-name kernel-release kernel-version machine nodename operating-system processor"},
	{"basename", "as:z", "multiple suffix= zero"},
	{"dirname", "z", "zero"},
	{"realpath", "LPemqsz", "canonicalize-existing canonicalize-missing logical no-symlinks physical quiet relative-base= relative-to= strip zero"},
	{"readlink", "efmnqsvz", "canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero"},
	{"sha1sum", "bctwz", "binary check ignore-missing quiet status strict tag text warn zero"},
	{"sha256sum", "bctwz", "binary check ignore-missing quiet status strict tag text warn zero"},
	{"sha512sum", "bctwz", "binary check ignore-missing quiet status strict tag text warn zero"},
	{"md5sum", "bctwz", "binary check ignore-missing quiet status strict tag text warn zero"},
	{"b2sum", "bcl:twz", "binary check ignore-missing length= quiet status strict tag text warn zero"},
	{"cksum", "a:bcl:twz", "algorithm= base64 binary check debug ignore-missing length= quiet raw status strict tag text untagged warn zero"},
	{"comm", "123iz", "check-order nocheck-order output-delimiter= total zero-terminated"},
	{"cmp", "bi:ln:sv", "bytes= ignore-initial= print-bytes quiet silent verbose"},
	{"diff", "0123456789BC:D:EF:I:NPS:TU:W:X:Zabcdeilnpqrstuvwx:y",
		"brief changed-group-format= color[=] context[=] ed exclude= exclude-from= expand-tabs from-file= horizon-lines= ifdef= ignore-all-space ignore-blank-lines ignore-case ignore-file-name-case ignore-matching-lines= ignore-space-change ignore-tab-expansion ignore-trailing-space initial-tab label= left-column line-format= minimal new-file new-group-format= new-line-format= no-dereference no-ignore-file-name-case normal old-group-format= old-line-format= paginate palette= rcs recursive report-identical-files show-c-function show-function-line= side-by-side speed-large-files starting-file= strip-trailing-cr suppress-blank-empty suppress-common-lines tabsize= text to-file= unchanged-group-format= unchanged-line-format= unidirectional-new-file unified[=] width="},
	{"column", "c:dE:eH:i:JLl:N:n:O:o:p:R:r:s:T:tW:x", "fillrows json keep-empty-lines output-separator= output-width= separator= table table-columns= table-columns-limit= table-header-repeat table-hide= table-name= table-noextreme= table-noheadings table-order= table-right= table-truncate= table-wrap= tree= tree-id= tree-parent="},
	{"fold", "bsw:", "bytes spaces width="},
	{"fmt", "0123456789cg:p:stuw:", "crown-margin goal= prefix= split-only tagged-paragraph uniform-spacing width="},
	{"paste", "d:sz", "delimiters= serial zero-terminated"},
	{"rev", "0", "zero"},
	{"seq", "0123456789f:s:tw", "equal-width format= separator="},
	{"sleep", "", ""},
	{"printenv", "0", "null"},
	{"jq", "CMRSaceL:f:hjnrsV",
		"arg= argjson= args ascii-output color-output compact-output exit-status from-file= indent= join-output jsonargs monochrome-output null-input raw-input raw-output raw-output0 rawfile= seq slurp slurpfile= sort-keys stream stream-errors tab unbuffered"},
	{"grep", "0123456789A:B:C:D:EFGHIJLMOPRSTUVZabcd:e:f:hilm:nopqrsuvwxyz",
		"after-context= basic-regexp before-context= binary binary-files= byte-offset bz2decompress color[=] colour[=] context[=] count decompress dereference-recursive devices= directories= exclude= exclude-dir= exclude-from= extended-regexp file= files-with-matches files-without-match fixed-strings group-separator= ignore-case include= include-dir= initial-tab invert-match label= line-buffered line-number line-regexp max-count= mmap no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive regexp= silent text with-filename word-regexp xz-decompress lzma"},
	{"tac", "brs:", "before regex separator="},
	{"expand", "0123456789it:", "initial tabs="},
	{"unexpand", "0123456789at:", "all first-only tabs="},
	{"join", "1:2:a:e:ij:o:t:v:z", "check-order header ignore-case nocheck-order zero-terminated"},
	{"strings", "0123456789T:Uade:fhn:os:t:vw", "all bytes= data encoding= include-all-whitespace output-separator= print-file-name radix= target= unicode="},
	{"numfmt", "d:z", "debug delimiter= field= format= from= from-unit= grouping header[=] invalid= padding= round= suffix= to= to-unit= unit-separator= zero-terminated"},
	{"factor", "h", "exponents"},
	{"nproc", "", "all ignore="},
	{"uptime", "Vhps", "pretty since"},
	{"tty", "s", "quiet silent"},
	{"locale", "?Vackmv", "all-locales category-name charmaps keyword-name usage verbose"},
	{"getconf", "av:", ""},
	// The readers whose tables list what they write or refuse too.
	{"printf", "v:", ""},
	{"date", "IRd:f:jnr:s:uv:", "date= debug file= iso-8601[=] reference= resolution rfc-3339= rfc-email set= universal utc"},
	{"hostname", "AFIabdfisy", "alias all-fqdns all-ip-addresses boot domain file= fqdn ip-address long nis short yp"},
	{"file", "0CF:LNSZbcde:f:hiklm:nP:prsvz",
		"apple brief checking-printout compile debug dereference exclude= exclude-quiet= extension files-from= keep-going list magic-file= mime mime-encoding mime-type no-buffer no-dereference no-pad no-sandbox parameter= preserve-date print0 raw separator= special-files uncompress uncompress-noreport"},
	{"less", "#:?ABCD:EFGIJKLMNO:P:QRSUVWXab:cdefgh:ij:k:mno:p:qrsSt:T:uwx:y:z:~",
		"HILITE-SEARCH HILITE-UNREAD IGNORE-CASE LINE-NUMBERS LOG-FILE= LONG-PROMPT QUIET QUIT-AT-EOF RAW-CONTROL-CHARS SEARCH-SKIP-SCREEN SILENT UNDERLINE-SPECIAL auto-buffers buffers= chop-long-lines clear-screen color= dumb file-size follow-name force header= hilite-search hilite-unread ignore-case incsearch intr= jump-target= lesskey-content= lesskey-file= lesskey-src= line-num-width= line-numbers log-file= long-prompt max-back-scroll= max-forw-scroll= mouse no-histdups no-init no-keypad no-lessopen no-number-headers no-search-headers no-vbell pattern= prompt= quiet quit-at-eof quit-if-one-screen quit-on-intr quotes= raw-control-chars redraw-on-quit rscroll= save-marks search-options= search-skip-screen shift= silent squeeze-blank-lines status-col-width= status-column status-line tabs= tag= tag-file= tilde underline-special use-backslash use-color wheel-lines= window= wordwrap"},
	{"man", "7?C:DE:HIKL:M:P:R:S:STVWXZacde:fiklm:p:r:s:tuw",
		"all apropos ascii catman config-file= debug default ditroff encoding= extension= global-apropos gxditview[=] html[=] ignore-case local-file locale= location location-cat manpath= match-case names-only nh no-hyphenation no-justification no-subpages pager= path preprocessor= prompt= recode= regex sections= systems= troff troff-device[=] update usage warnings[=] whatis where where-cat wildcard"},
	{"rg", "0.A:B:C:E:FHIM:LNPST:UVabcd:e:f:g:hij:lm:noqr:st:uvwxz",
		"after-context= auto-hybrid-regex before-context= binary block-buffered byte-offset case-sensitive color= colors= column context= context-separator= count count-matches crlf debug dfa-size-limit= encoding= engine= field-context-separator= field-match-separator= file= files files-with-matches files-without-match fixed-strings follow generate= glob= glob-case-insensitive heading hidden hostname-bin= hyperlink-format= iglob= ignore-case ignore-file= ignore-file-case-insensitive include-zero invert-match json line-buffered line-number line-regexp max-columns= max-columns-preview no-auto-hybrid-regex no-binary no-block-buffered no-byte-offset no-column no-crlf no-encoding no-fixed-strings no-follow no-glob-case-insensitive no-include-zero no-invert-match no-line-buffered no-max-columns-preview no-multiline no-multiline-dotall no-one-file-system no-pcre2 no-pre no-search-zip no-sort-files no-text no-trim max-count= max-depth= max-filesize= maxdepth= mmap multiline multiline-dotall no-config no-context-separator no-filename no-heading no-hidden no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-line-number no-messages no-mmap no-pcre2-unicode no-require-git no-unicode null null-data one-file-system only-matching passthru passthrough path-separator= pcre2 pcre2-version pre= pre-glob= pretty quiet regex-size-limit= regexp= replace= search-zip smart-case sort= sort-files sortr= stats stop-on-nonmatch text threads= trace trim type= type-add= type-clear= type-list type-not= unrestricted vimgrep with-filename word-regexp"},
	{"shuf", "ei:n:o:rz", "echo head-count= input-range= output= random-source= repeat zero-terminated"},
	{"tee", "aip", "append ignore-interrupts output-error[=]"},
	{"sort", "CMRS:T:Vbcdfghik:mno:rst:uz",
		"batch-size= buffer-size= check[=] compress-program= debug dictionary-order field-separator= files0-from= general-numeric-sort human-numeric-sort ignore-case ignore-leading-blanks ignore-nonprinting key= merge month-sort numeric-sort output= parallel= random-sort random-source= reverse sort= stable temporary-directory= unique version-sort zero-terminated"},
	{"uniq", "Dcdf:is:uw:z", "all-repeated[=] check-chars= count group[=] ignore-case repeated skip-chars= skip-fields= unique zero-terminated"},
	{"iconv", "?cf:lo:st:", "from-code= list output= silent to-code= usage verbose"},
	// The writers.
	{"cp", "HLPRS:TZabcdfilnprst:uvxX",
		"archive attributes-only backup[=] context[=] copy-contents debug dereference force interactive keep-directory-symlink link no-clobber no-dereference no-preserve= no-target-directory one-file-system parents preserve[=] recursive reflink[=] remove-destination sparse= strip-trailing-slashes suffix= symbolic-link target-directory= update[=] verbose"},
	{"mv", "S:TZbfhint:uvx", "backup[=] context debug exchange force interactive no-clobber no-copy no-target-directory strip-trailing-slashes suffix= target-directory= update[=] verbose"},
	{"rm", "IPRWdfirvx", "dir force interactive[=] no-preserve-root one-file-system preserve-root[=] recursive verbose"},
	{"rmdir", "pv", "ignore-fail-on-non-empty parents verbose"},
	{"mkdir", "Zm:pv", "context[=] mode= parents verbose"},
	{"touch", "A:acd:fhmr:t:", "date= no-create no-dereference reference= time="},
	{"ln", "FLPS:Tbdfhinrst:vw", "backup[=] directory force interactive logical no-dereference no-target-directory physical relative suffix= symbolic target-directory= verbose"},
	{"link", "", ""},
	{"unlink", "", ""},
	{"install", "B:CDMS:TZbcdf:g:m:o:pst:v", "backup[=] compare context[=] debug directory group= mode= no-target-directory owner= preserve-context preserve-timestamps strip strip-program= suffix= target-directory= verbose"},
	{"dd", "", ""},
	{"truncate", "cor:s:", "io-blocks no-create reference= size="},
	// chmod's modes may start with '-' (chmod -w f), which it takes as
	// operands: its mode letters are listed as flags.
	{"chmod", "CEHILNPRXacfghilnorstuvwx", "changes dereference no-dereference no-preserve-root preserve-root quiet recursive reference= silent verbose"},
	{"chown", "HLPRcfhnvx", "changes dereference from= no-dereference no-preserve-root preserve-root quiet recursive reference= silent verbose"},
	{"chgrp", "HLPRcfhnvx", "changes dereference from= no-dereference no-preserve-root preserve-root quiet recursive reference= silent verbose"},
	{"shred", "fn:s:uvxz", "exact force iterations= random-source= remove[=] size= verbose zero"},
	{"mkfifo", "Zm:", "context[=] mode="},
	// ncurses 6.4's tic (tic -?): no long options.
	{"tic", "01CDGIKLNQ::R:TUVWace:fgo:qrstv::w::x", ""},
	// glibc's localedef --help.
	{"localedef", "A:cf:i:u:vV", "add-to-archive alias-file= big-endian charmap= delete-from-archive force inputfile= list-archive little-endian no-archive no-hard-links no-warnings= posix prefix= quiet replace repertoire-map= usage verbose version warnings="},
	{"mknod", "Zm:", "context[=] mode="},
	{"split", "0123456789C:a:b:del:n:p:t:ux", "additional-suffix= bytes= elide-empty-files filter= hex-suffixes[=] line-bytes= lines= number= numeric-suffixes[=] separator= suffix-length= unbuffered verbose"},
	{"csplit", "b:f:kn:sz", "digits= elide-empty-files keep-files prefix= quiet silent suffix-format= suppress-matched"},
	{"fallocate", "cdil:no:pvxz", "collapse-range dig-holes insert-range keep-size length= offset= posix punch-hole verbose zero-range"},
	{"patch", "B:D:EF:NRTV:Y:Zbcd:efg:i:lno:p:r:stuvx:z:",
		"backup backup-if-mismatch basename-prefix= batch binary context directory= dry-run ed forward fuzz= get= ifdef= ignore-whitespace input= merge[=] no-backup-if-mismatch normal output= posix prefix= quiet quoting-style= read-only= reject-file= reject-format= remove-empty-files reverse set-time set-utc silent strip= suffix= unified verbose version-control="},
	{"gzip", "0123456789LNS:Vcdfhklnqrtv", "best decompress fast force keep license list name no-name quiet recursive rsyncable stdout suffix= synchronous test uncompress verbose"},
	{"gunzip", "0123456789LNS:Vcdfhklnqrtv", "best decompress fast force keep license list name no-name quiet recursive rsyncable stdout suffix= synchronous test uncompress verbose"},
	{"uncompress", "0123456789LNS:Vcdfhklnqrtv", "best decompress fast force keep license list name no-name quiet recursive rsyncable stdout suffix= synchronous test uncompress verbose"},
	{"compress", "Vb:cdfrv", ""},
	{"bzip2", "0123456789LVcdfhkqstvz", "best compress decompress fast force keep license quiet small stdout test verbose"},
	{"bunzip2", "0123456789LVcdfhkqstvz", "best compress decompress fast force keep license quiet small stdout test verbose"},
	{"xz", "0123456789C:F:HM:QS:T:Vcdefhklqtvz",
		"arm[=] arm64[=] armthumb[=] block-list= block-size= check= compress decompress delta[=] extreme files[=] files0[=] flush-timeout= force format= ia64[=] ignore-check info-memory keep list long-help lzma1[=] lzma2[=] memlimit= memlimit-compress= memlimit-decompress= memlimit-mt-decompress= no-adjust no-sparse no-warn powerpc[=] quiet riscv[=] robot single-stream sparc[=] stdout suffix= test threads= uncompress verbose x86[=]"},
	{"zstd", "0123456789B::D:M::T::Vb::cde::fhi::klo:qrtvz",
		"adapt asyncio auto-threads= check compress compress-literals content-size decompress dictID= exclude-compressed fast[=] filelist= force format= keep list long[=] maxdict= memory= memlimit= mmap-dict no-asyncio no-check no-compress-literals no-content-size no-dictID no-mmap-dict no-pass-through no-progress no-row-match-finder no-sparse output-dir-flat= output-dir-mirror= pass-through patch-from= priority= progress quiet rm row-match-finder rsyncable single-thread size-hint= sparse stdout stream-size= target-compressed-block-size= test trace= train train-cover[=] train-fastcover[=] train-legacy[=] ultra uncompress verbose zstd[=]"},
	{"lz4", "0123456789B::D:HVbcdefhiklmqrtvz", "best content-size fast[=] favor-decSpeed frame-crc list no-content-size no-frame-crc no-sparse rm sparse"},
	{"lzip", "0123456789FS:ab:cdfhklm:no:qs:tv", "best check-lib decompress fast force keep list loose-trailing match-length= member-size= output= quiet stdout test trailing-error verbose volume-size= dictionary-size="},
	{"brotli", "0123456789DS:Vcdfhjko:q:tvw:Z", "best decompress force keep large_window= no-copy-stat output= quality= rm stdout suffix= test verbose"},
	{"unzip", "$^:ABCDFKLMO:I:P:TUVWXZabcd:fhjlnopqstuvx:z", ""},
	{"scp", "346ABCD:ORTc:F:i:J:l:o:P:pqrS:svX:", ""},
	{"sponge", "a", ""},
	{"yq", "CIMPRSYcehinjo:p:rsvw:y", "arg= argjson= args exit-status from-file= front-matter= in-place indent= indentless indentless-lists inplace input-format= jsonargs no-colors no-doc null-input output-format= prettyPrint rawfile= raw-output slurpfile= tab unwrapScalar= width= yaml-output yaml-output-grammar-version= yaml-roundtrip colors xml-output toml-output"},
	{"ranlib", "DUhtv", "plugin= version"},
	{"strip", "DF:I:K:MN:O:R:SUVXdghopsvwx",
		"disable-deterministic-archives discard-all discard-locals enable-deterministic-archives info input-target= keep-file-symbols keep-section= keep-section-symbols keep-symbol= merge-notes no-merge-notes only-keep-debug output-target= preserve-dates remove-relocations= remove-section= strip-all strip-debug strip-dwo strip-symbol= strip-unneeded strip-unneeded-symbol= target= verbose wildcard"},
	{"xgettext", "CD:EFL:MTVac::d:ef:hijk::mno:p:svw:x:",
		"add-comments[=] add-location boost c check= color[=] copyright-holder= debug default-domain= directory= escape exclude-file= extract-all files-from= flag= force-po foreign-user from-code= indent its= itstool join-existing kde keyword[=] language= msgid-bugs-address= msgstr-prefix[=] msgstr-suffix[=] no-escape no-location no-wrap omit-header output= output-dir= package-name= package-version= properties-output qt sentence-end= sort-by-file sort-output strict stringtable-output style= trigraphs verbose width="},
	{"msgfmt", "CD:L:PVa:cd:fhjkl:o:r:v",
		"alignment= check check-accelerators[=] check-compatibility check-domain check-format check-header csharp csharp-resources desktop directory= endianness= java java2 keyword[=] language= locale= no-convert no-hash no-redundancy output-file= properties-input qt resource= source statistics strict stringtable-input tcl template= use-fuzzy use-untranslated verbose xml"},
	{"msgmerge", "C:D:EFNPUVehimno:pqsvw:", "add-location backup= color[=] compendium= directory= escape for-msgfmt force-po indent lang= multi-domain no-escape no-fuzzy-matching no-location no-wrap output-file= previous properties-input properties-output quiet silent sort-by-file sort-output strict stringtable-input stringtable-output style= suffix= update verbose width="},
	{"msgcat", "D:EFPVef:hino:pst:uw:", "add-location color[=] directory= escape files-from= force-po indent lang= less-than= more-than= no-escape no-location no-wrap output-file= properties-input properties-output sort-by-file sort-output strict stringtable-input stringtable-output style= to-code= unique use-first width="},
	{"msgconv", "D:EFPVehino:pst:w:", "add-location color[=] directory= escape force-po indent no-escape no-location no-wrap output-file= properties-input properties-output sort-by-file sort-output strict stringtable-input stringtable-output style= to-code= width="},
	{"msgunfmt", "EVd:ehijl:o:pr:svw:", "color[=] csharp csharp-resources escape force-po indent java locale= no-escape no-wrap output-file= properties-output resource= sort-output strict stringtable-output style= tcl verbose width="},
	{"msginit", "PVhi:l:o:pw:", "color[=] input= locale= no-translator no-wrap output-file= properties-input properties-output stringtable-input stringtable-output style= width="},
	{"msguniq", "D:EFPVdehino:pst:uw:", "add-location color[=] directory= escape force-po indent no-escape no-location no-wrap output-file= properties-input properties-output repeated sort-by-file sort-output strict stringtable-input stringtable-output style= to-code= unique use-first width="},
	{"msgattrib", "D:EFPVehino:psw:", "add-location clear-fuzzy clear-obsolete clear-previous color[=] directory= empty escape force-po fuzzy ignore-file= indent no-escape no-fuzzy no-location no-obsolete no-wrap obsolete only-file= only-fuzzy only-obsolete output-file= previous properties-input properties-output set-fuzzy set-obsolete sort-by-file sort-output strict stringtable-input stringtable-output style= translated untranslated width="},
	{"msggrep", "CD:EFJKM:N:PTVXe:f:hino:pvw:", "add-location color[=] comment directory= domain= escape extended-regexp extracted-comment file= fixed-strings force-po ignore-case indent invert-match location= msgctxt msgid msgstr no-escape no-location no-wrap output-file= properties-input properties-output regexp= sort-by-file sort-output strict stringtable-input stringtable-output style= width="},
	{"msgcomm", "D:EFPVef:hino:psuw:", "add-location color[=] directory= escape files-from= force-po indent less-than= more-than= no-escape no-location no-wrap omit-header output-file= properties-input properties-output sort-by-file sort-output strict stringtable-input stringtable-output style= unique width="},
	{"msgen", "D:EFPVehino:psw:", "add-location color[=] directory= escape force-po indent lang= no-escape no-location no-wrap output-file= properties-input properties-output sort-by-file sort-output strict stringtable-input stringtable-output style= width="},
	{"tar", "0123456789ABF:GH:IJK:L:MN:OPRST:UV:WX:Zabcf:g:hijklmnopqrstuvwxz",
		"absolute-names acls append atime-preserve[=] auto-compress backup[=] block-number blocking-factor= bzip2 catenate check-device check-links checkpoint[=] checkpoint-action= clamp-mtime compare concatenate create delay-directory-restore delete dereference diff directory= exclude= exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-from= exclude-ignore= exclude-ignore-recursive= exclude-tag= exclude-tag-all= exclude-tag-under= exclude-vcs exclude-vcs-ignores extract file= files-from= force-local format= full-time get group= group-map= gunzip gzip hard-dereference ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental index-file= info-script= interactive keep-directory-symlink keep-newer-files keep-old-files label= level= line-buffered list listed-incremental= lzip lzma lzop mode= mtime= multi-volume new-volume-script= newer= newer-mtime= no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore no-ignore-case no-ignore-command-error no-null no-overwrite-dir no-quote-chars= no-recursion no-same-owner no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner occurrence[=] one-file-system one-top-level[=] overwrite overwrite-dir owner= owner-map= pax-option= portability posix preserve-order preserve-permissions quote-chars= quoting-style= read-full-records record-size= recursion recursive-unlink remove-files restrict rmt-command= rsh-command= same-order same-owner same-permissions seek selinux show-defaults show-omitted-dirs show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sort= sparse sparse-version= starting-file= strip-components= suffix= tape-length= to-command= to-stdout totals[=] touch transform= uncompress ungzip unlink-first unquote update use-compress-program= utc verbatim-files-from verbose verify volno-file= warning= wildcards wildcards-match-slash xattrs xattrs-exclude= xattrs-include= xform= xz zstd"},
}

// optionTwins are the programs that take another's options, each with
// the other.
var optionTwins = [][2]string{{"egrep", "grep"}, {"fgrep", "grep"}, {"unxz", "xz"}, {"lzma", "xz"}, {"unlzma", "xz"}, {"unzstd", "zstd"},
	{"bsdtar", "tar"}, {"zless", "less"},
	// zgrep, zdiff and zcmp hand their options to grep, diff and cmp.
	{"zgrep", "grep"}, {"zdiff", "diff"}, {"zcmp", "cmp"},
	// On macOS more is less; util-linux more's letters are less's too.
	{"more", "less"}}

// operandsOnly are the readers and writers whose arguments are no
// options that getopt reads, with why: none of them is refused as an
// option bn does not know.
var operandsOnly = []struct{ name, why string }{
	{"echo", "it prints its operands; bash's and zsh's builtin take only -n, -e and -E, and print any other word"},
	{"test", "its operands are an expression (-f FILE, -n STRING), not options"},
	{"[", "its operands are an expression (-f FILE, -n STRING), not options"},
	{"expr", "its operands are an expression (expr -1 + 2)"},
	{"true", "it ignores its arguments"},
	{"false", "it ignores its arguments"},
	// Their options are single-dash words or key letters no getopt reads
	// (openssl -out F, 7z x -oDIR, ar rcs); a Writes program's operands
	// are recorded as written, and allowing one is allowing what its
	// note says.
	{"openssl", "its options are single-dash words (-out FILE), read by each of its commands"},
	{"7z", "its switches are -oDIR, -pPASS and the like after a command letter"},
	{"7za", "its switches are -oDIR, -pPASS and the like after a command letter"},
	{"7zr", "its switches are -oDIR, -pPASS and the like after a command letter"},
	{"ar", "its first operand is a word of key letters (rcs), not getopt's options"},
	{"objcopy", "its options are single-dash words as often as double (-O binary, --only-keep-debug), read by binutils' own table"},
	{"zmore", "it takes no options (one starting with - is an error)"},
}

// optionTable is a program's options, written as getopt's (see
// optionTables). Tables are slices of strings, which take no memory at
// start, where a map's literal is built.
type optionTable struct{ name, shorts, longs string }

// opts parses a table written as getopt's.
func (t optionTable) opts() []opt {
	shorts, longs := t.shorts, t.longs
	var out []opt
	for i := 0; i < len(shorts); i++ {
		o := opt{short: shorts[i]}
		switch {
		case strings.HasPrefix(shorts[i+1:], "::"):
			o.arg, i = optArg, i+2
		case strings.HasPrefix(shorts[i+1:], ":"):
			o.arg, i = needArg, i+1
		}
		out = append(out, o)
	}
	for _, l := range strings.Fields(longs) {
		o := opt{long: l}
		switch {
		case strings.HasSuffix(l, "[=]"):
			o.long, o.arg = strings.TrimSuffix(l, "[=]"), optArg
		case strings.HasSuffix(l, "="):
			o.long, o.arg = strings.TrimSuffix(l, "="), needArg
		}
		out = append(out, o)
	}
	return out
}

// listOptions adds each program's table to the options bn knows of it
// (after those its definition gives, which say what an option does) and
// marks it complete, so that an option it does not list is refused.
func listOptions(programs map[string]*program) {
	tables := slices.Clone(optionTables)
	for _, twin := range optionTwins {
		i := slices.IndexFunc(optionTables, func(t optionTable) bool { return t.name == twin[1] })
		tables = append(tables, optionTable{twin[0], optionTables[i].shorts, optionTables[i].longs})
	}
	// The programs bn reads the arguments of itself list the options
	// their checks read.
	for n, o := range map[string][]opt{"sed": sedOpts, "awk": awkOpts, "gawk": awkOpts, "mawk": awkOpts, "nawk": awkOpts,
		"mktemp": mktempOpts, "uudecode": uudecodeOpts} {
		programs[n].opts, programs[n].listed = o, true
	}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		programs[n].posix = true // its options end at its program, as awkCall reads them
	}
	for _, t := range tables {
		p := programs[t.name]
		if p == nil {
			panic(fmt.Sprintf("enforce: option table for %s, a program bn does not know", t.name))
		}
		p.table, p.listed = &t, true
	}
}

// optionsUnknown refuses, under patterns, an option of a reader or writer
// its table does not list (--help and --version aside). A word known only
// when the line runs is left to check: under patterns the line can set no
// variable, so its value is the environment's or a file name's, not the
// agent's choice. True when it refused.
func (w *walker) optionsUnknown(c call, p *program) bool {
	if !p.listed {
		return false
	}
	_, _, _, unknown := scanOpts(p.options(), c.args, p.posix, false)
	for _, u := range unknown {
		if u == "--help" || u == "--version" {
			continue
		}
		w.refuse(refused(c.text, "%s %s is an option bn does not know of %s, and one bn has not read in its manual may write a file or run a program; bn refuses it under patterns: leave it out, ask for it to be added to bn's table of %s's options, or allow the shell whole", c.name, strings.SplitN(u, "=", 2)[0], c.name, c.name))
		return true
	}
	return false
}
