package enforce

import (
	"fmt"
	"slices"
	"strings"
	"sync"
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
	// curl --help all (7.88), wget --help (1.21), rsync --help (3.x), GNU cpio --help (2.13).
	{"curl", "#012346A:BC:D:E:F:GH:IJK:LMNOP:Q:RST:U:VX:Y:Zab:c:d:e:fgh:ijklm:no:pqr:st:u:vw:x:y:z:",
		"abstract-unix-socket= alt-svc= anyauth append aws-sigv4= basic cacert= capath= cert-status cert-type= cert= ciphers= compressed compressed-ssh config= connect-timeout= connect-to= continue-at= cookie-jar= cookie= create-dirs create-file-mode= crlf crlfile= curves= data-ascii= data-binary= data-raw= data-urlencode= data= delegation= digest disable disable-eprt disable-epsv disallow-username-in-url dns-interface= dns-ipv4-addr= dns-ipv6-addr= dns-servers= doh-cert-status doh-insecure doh-url= dump-header= egd-file= engine= etag-compare= etag-save= expect100-timeout= fail fail-early fail-with-body false-start form-escape form-string= form= ftp-account= ftp-alternative-to-user= ftp-create-dirs ftp-method= ftp-pasv ftp-port= ftp-pret ftp-skip-pasv-ip ftp-ssl-ccc ftp-ssl-ccc-mode= ftp-ssl-control get globoff happy-eyeballs-timeout-ms= haproxy-protocol head header= help= hostpubmd5= hostpubsha256= hsts= http0.9 http1.0 http1.1 http2 http2-prior-knowledge http3 http3-only ignore-content-length include insecure interface= ipv4 ipv6 json= junk-session-cookies keepalive-time= key-type= key= krb= libcurl= limit-rate= list-only local-port= location location-trusted login-options= mail-auth= mail-from= mail-rcpt-allowfails mail-rcpt= manual max-filesize= max-redirs= max-time= metalink negotiate netrc netrc-file= netrc-optional next no-alpn no-buffer no-clobber no-keepalive no-npn no-progress-meter no-sessionid noproxy= ntlm ntlm-wb oauth2-bearer= output-dir= output= parallel parallel-immediate parallel-max= pass= path-as-is pinnedpubkey= post301 post302 post303 preproxy= progress-bar proto-default= proto-redir= proto= proxy-anyauth proxy-basic proxy-cacert= proxy-capath= proxy-cert-type= proxy-cert= proxy-ciphers= proxy-crlfile= proxy-digest proxy-header= proxy-insecure proxy-key-type= proxy-key= proxy-negotiate proxy-ntlm proxy-pass= proxy-pinnedpubkey= proxy-service-name= proxy-ssl-allow-beast proxy-ssl-auto-client-cert proxy-tls13-ciphers= proxy-tlsauthtype= proxy-tlspassword= proxy-tlsuser= proxy-tlsv1 proxy-user= proxy1.0= proxy= proxytunnel pubkey= quote= random-file= range= rate= raw referer= remote-header-name remote-name remote-name-all remote-time remove-on-error request-target= request= resolve= retry-all-errors retry-connrefused retry-delay= retry-max-time= retry= sasl-authzid= sasl-ir service-name= show-error silent socks4= socks4a= socks5-basic socks5-gssapi socks5-gssapi-nec socks5-gssapi-service= socks5-hostname= socks5= speed-limit= speed-time= ssl ssl-allow-beast ssl-auto-client-cert ssl-no-revoke ssl-reqd ssl-revoke-best-effort sslv2 sslv3 stderr= styled-output suppress-connect-headers tcp-fastopen tcp-nodelay telnet-option= tftp-blksize= tftp-no-options time-cond= tls-max= tls13-ciphers= tlsauthtype= tlspassword= tlsuser= tlsv1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 tr-encoding trace-ascii= trace-time trace= unix-socket= upload-file= url-query= url= use-ascii user-agent= user= verbose version write-out= xattr"},
	{"wget", "46A:B:D:EFHI:KLNO:P:Q:R:ST:U:VX:a:bcde:hi:kl:mo:pqrt:vw:x",
		"accept= accept-regex= adjust-extension append-output= ask-password auth-no-challenge background backup-converted backups= base= bind-address= body-data= body-file= ca-certificate= ca-directory= certificate= certificate-type= ciphers= compression= config= connect-timeout= content-disposition content-on-error continue convert-file-only convert-links crl-file= cut-dirs= debug default-page= delete-after directory-prefix= dns-timeout= domains= exclude-directories= exclude-domains= execute= follow-ftp follow-tags= force-directories force-html ftp-password= ftp-user= ftps-clear-data-connection ftps-fallback-to-ftp ftps-implicit ftps-resume-ssl header= help hsts-file http-password= http-user= https-only ignore-case ignore-length ignore-tags= include-directories= inet4-only inet6-only input-file= keep-session-cookies level= limit-rate= load-cookies= local-encoding= max-redirect method= mirror no-cache no-check-certificate no-clobber no-config no-cookies no-directories no-dns-cache no-glob no-host-directories no-hsts no-http-keep-alive no-if-modified-since no-iri no-netrc no-parent no-passive-ftp no-proxy no-remove-listing no-use-server-timestamps no-verbose no-warc-compression no-warc-digests no-warc-keep-log output-document= output-file= page-requisites password= pinnedpubkey= post-data= post-file= prefer-family= preserve-permissions private-key= private-key-type= progress= protocol-directories proxy-password= proxy-user= quiet quota= random-wait read-timeout= recursive referer= regex-type= reject= reject-regex= rejected-log= relative remote-encoding= report-speed= restrict-file-names= retr-symlinks retry-connrefused retry-on-http-error= save-cookies= save-headers secure-protocol= server-response show-progress span-hosts spider start-pos= strict-comments timeout= timestamping tries= trust-server-names unlink use-askpass= user= user-agent= verbose version wait= waitretry= warc-cdx warc-dedup= warc-file= warc-header= warc-max-size= warc-tempdir= xattr"},
	{"rsync", "0468@:AB:CDEFHIJKLM:NOPRST:UVWXabcde:f:gh:iklmnopqrstuvxyz",
		"8-bit-output acls address= append append-verify archive atimes backup backup-dir= block-size= blocking-io bwlimit= checksum checksum-choice= checksum-seed= chmod= chown= compare-dest= compress compress-choice= compress-level= compress-threads= confine-root= contimeout= copy-as= copy-dest= copy-devices copy-dirlinks copy-links copy-unsafe-links crtimes cvs-exclude debug= del delay-updates delete delete-after delete-before delete-delay delete-during delete-excluded delete-missing-args devices dirs drop-D dry-run early-input= exclude= exclude-from= executability existing fake-super files-from= filter= force from0 fsync fuzzy group groupmap= hard-links help= human-readable i-r iconv= ignore-errors ignore-existing ignore-missing-args ignore-non-existing ignore-times inc-recursive include= include-from= info= inplace insecure-links ipv4 ipv6 itemize-changes keep-dirlinks link-dest= links list-only log-file= log-file-format= max-alloc= max-delete= max-size= min-size= mkpath modify-window= munge-links no-OPTION no-W no-i-r no-implied-dirs no-inc-recursive no-motd no-whole-file numeric-ids old-args old-d old-dirs omit-dir-times omit-link-times one-file-system only-write-batch= open-noatime out-format= outbuf= owner partial partial-dir= password-file= perms port= preallocate progress protocol= prune-empty-dirs quiet read-batch= recursive relative remote-option= remove-source-files rsh= rsync-path= safe-links secluded-args size-only skip-compress= sockopts= sparse specials stats stderr= stop-after= stop-at= suffix= super temp-dir= timeout= times trust-sender update usermap= verbose version whole-file write-batch= write-devices xattrs"},
	{"cpio", "0aAbBcC:dD:E:fF:H:iI:lLmM:noO:prR:sStuvVW:",
		"absolute-filenames append block-size= create dereference device-independent directory= dot extract file= force-local format= ignore-devno ignore-dirnlink io-size= link list make-directories message= no-absolute-filenames no-preserve-owner nonmatching null numeric-uid-gid only-verify-crc owner= pass-through pattern-file= preserve-modification-time quiet rename rename-batch-file= renumber-inodes reproducible reset-access-time rsh-command= sparse swap swap-bytes swap-halfwords to-stdout unconditional usage verbose warning="},
}

// gitOptionTables are git's subcommands' options, as git 2.39 lists
// them (`git SUB -h`, and the OPTIONS of `git help SUB`, which for diff,
// log, show and the like hold the diff and revision options -h does
// not). Under patterns an option of one of these subcommands its table
// does not list is refused (gitOptionsUnknown). A value the manual shows
// only glued on (-U<n>, --format=<format>) is read as one only glued on,
// so that a word after it is read as an option too.
var gitOptionTables = []optionTable{
	{"add", "ANefinpuv",
		"all chmod= dry-run edit force ignore-errors ignore-missing ignore-removal intent-to-add interactive no-all no-ignore-removal no-warn-embedded-repo patch pathspec-file-nul pathspec-from-file= refresh renormalize sparse update verbose"},
	{"am", "C:S::cikmp:qrsu",
		"3way abort allow-empty committer-date-is-author-date continue directory= empty= exclude= gpg-sign[=] ignore-date ignore-space-change[=] ignore-whitespace[=] include= interactive keep keep-cr keep-non-patch message-id no-3way no-gpg-sign[=] no-keep-cr no-message-id no-rerere-autoupdate no-scissors no-utf8 patch-format= quiet quit quoted-cr= reject[=] rerere-autoupdate resolved resolvemsg= scissors show-current-patch[=] signoff skip utf8 whitespace="},
	{"apply", "C:NRp:qvz",
		"3way allow-binary-replacement allow-empty allow-overlap apply binary build-fake-ancestor= cached check directory= exclude= ignore-space-change ignore-whitespace inaccurate-eof include= index intent-to-add no-add numstat quiet recount reject reverse stat summary unidiff-zero unsafe-paths verbose whitespace="},
	{"archive", "0123456789N:lo:v",
		"add-file= add-virtual-file= exec= format= list output= prefix= remote= verbose worktree-attributes"},
	{"blame", "C::L:M::S:bcefhlnpstw",
		"abbrev[=] color-by-age color-lines contents= date= encoding[=] first-parent ignore-rev= ignore-revs-file= incremental line-porcelain minimal no-progress porcelain progress reverse= root score-debug show-email show-name show-number show-stats"},
	{"branch", "CDMacdfilmqrt::u:v::",
		"abbrev[=] all color[=] column[=] contains= copy create-reflog delete edit-description force format= ignore-case list merged= move no-abbrev no-color no-column[=] no-contains= no-merged= no-track points-at= quiet recurse-submodules remotes set-upstream set-upstream-to= show-current sort= track[=] unset-upstream verbose[=]"},
	{"cat-file", "epstz",
		"allow-unknown-type batch-all-objects batch-check[=] batch-command[=] batch[=] buffer filters follow-symlinks mailmap no-mailmap no-use-mailmap path= textconv unordered use-mailmap"},
	{"check-attr", "az",
		"all cached stdin"},
	{"check-ignore", "nqvz",
		"no-index non-matching quiet stdin verbose"},
	{"check-ref-format", "",
		"allow-onelevel branch normalize print refspec-pattern"},
	{"checkout", "B:b:dflmpqt::",
		"conflict= detach force guess ignore-other-worktrees ignore-skip-worktree-bits merge no-guess no-overlay no-overwrite-ignore no-progress no-recurse-submodules no-track orphan= ours overlay overwrite-ignore patch pathspec-file-nul pathspec-from-file= progress quiet recurse-submodules[=] theirs track[=]"},
	{"checkout-index", "afnquz",
		"all force ignore-skip-worktree-bits index no-create prefix= quiet stage= stdin temp"},
	{"cherry", "v",
		"abbrev[=] verbose"},
	{"cherry-pick", "S::X:em:nrsx",
		"abort allow-empty allow-empty-message cleanup= continue edit ff gpg-sign[=] keep-redundant-commits mainline= no-commit no-gpg-sign[=] no-rerere-autoupdate quit rerere-autoupdate signoff skip strategy-option= strategy="},
	{"clean", "Xde:finqx",
		"dry-run exclude= force interactive quiet"},
	{"clone", "b:c:j:lno:qsu:v",
		"also-filter-submodules bare branch= bundle-uri= config= depth= dissociate filter= ipv4 ipv6 jobs= local mirror no-checkout no-hardlinks no-reject-shallow no-remote-submodules no-shallow-submodules no-single-branch no-tags origin= progress quiet recurse-submodules[=] recursive[=] reference-if-able= reference= reject-shallow remote-submodules separate-git-dir= server-option= shallow-exclude= shallow-since= shallow-submodules shared single-branch sparse template= upload-pack= verbose"},
	{"commit", "C:F:S::ac:eim:nopqst:u::vz",
		"ahead-behind all allow-empty allow-empty-message amend author= branch cleanup= date= dry-run edit file= fixup= gpg-sign[=] include interactive long message= no-edit no-gpg-sign[=] no-post-rewrite no-signoff no-status no-verify null only patch pathspec-file-nul pathspec-from-file= porcelain quiet reedit-message= reset-author reuse-message= short signoff squash= status template= trailer= untracked-files[=] verbose verify"},
	{"commit-tree", "F:S::m:p:",
		"gpg-sign[=]"},
	{"config", "ef:lt:z",
		"add blob= bool bool-or-int bool-or-str default= edit expiry-date file= fixed-value get get-all get-color= get-colorbool= get-regexp get-urlmatch= global includes int list local name-only no-includes no-type null path remove-section rename-section replace-all show-origin show-scope system type= unset unset-all worktree"},
	{"count-objects", "Hv",
		"human-readable verbose"},
	{"describe", "",
		"abbrev[=] all always broken[=] candidates= contains debug dirty[=] exact-match exclude= first-parent long match= tags"},
	{"diff", "0123B::C::DG::I::M::O::RS::U::WX::abl::psuwz",
		"abbrev[=] anchored[=] base binary break-rewrites[=] cached check color-moved-ws[=] color-moved[=] color-words[=] color[=] compact-summary cumulative diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] dst-prefix[=] exit-code ext-diff find-copies-harder find-copies[=] find-object[=] find-renames[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] irreversible-delete ita-invisible-in-index line-prefix[=] merge-base minimal name-only name-status no-color no-color-moved no-color-moved-ws no-ext-diff no-indent-heuristic no-index no-patch no-prefix no-relative[=] no-rename-empty no-renames no-textconv numstat ours output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex quiet raw relative[=] rename-empty rotate-to[=] shortstat skip-to[=] src-prefix[=] staged stat[=] submodule[=] summary text textconv theirs unified[=] word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"diff-files", "B::C::DG::I::M::O::RS::U::WX::abcl::pqsuwz",
		"abbrev[=] anchored[=] binary break-rewrites[=] cc check color-moved-ws[=] color-moved[=] color-words[=] color[=] compact-summary cumulative diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] dst-prefix[=] exit-code ext-diff find-copies-harder find-copies[=] find-object[=] find-renames[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] irreversible-delete ita-invisible-in-index line-prefix[=] minimal name-only name-status no-color no-color-moved no-color-moved-ws no-ext-diff no-indent-heuristic no-patch no-prefix no-relative[=] no-rename-empty no-renames no-textconv numstat output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex quiet raw relative[=] rename-empty rotate-to[=] shortstat skip-to[=] src-prefix[=] stat[=] submodule[=] summary text textconv unified[=] word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"diff-index", "B::C::DG::I::M::O::RS::U::WX::abl::mpsuwz",
		"abbrev[=] anchored[=] binary break-rewrites[=] cached check color-moved-ws[=] color-moved[=] color-words[=] color[=] compact-summary cumulative diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] dst-prefix[=] exit-code ext-diff find-copies-harder find-copies[=] find-object[=] find-renames[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] irreversible-delete ita-invisible-in-index line-prefix[=] merge-base minimal name-only name-status no-color no-color-moved no-color-moved-ws no-ext-diff no-indent-heuristic no-patch no-prefix no-relative[=] no-rename-empty no-renames no-textconv numstat output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex quiet raw relative[=] rename-empty rotate-to[=] shortstat skip-to[=] src-prefix[=] stat[=] submodule[=] summary text textconv unified[=] word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"diff-tree", "B::C::DG::I::M::O::RS::U::WX::abcl::mprstuvwz",
		"abbrev-commit abbrev[=] always anchored[=] binary break-rewrites[=] cc check color-moved-ws[=] color-moved[=] color-words[=] color[=] combined-all-paths compact-summary cumulative diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] dst-prefix[=] encoding[=] exit-code expand-tabs[=] ext-diff find-copies-harder find-copies[=] find-object[=] find-renames[=] format[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] irreversible-delete ita-invisible-in-index line-prefix[=] merge-base minimal name-only name-status no-abbrev-commit no-color no-color-moved no-color-moved-ws no-commit-id no-expand-tabs[=] no-ext-diff no-indent-heuristic no-notes no-patch no-prefix no-relative[=] no-rename-empty no-renames no-standard-notes no-textconv notes[=] numstat oneline output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex pretty[=] quiet raw relative[=] rename-empty root rotate-to[=] shortstat show-notes[=] show-signature skip-to[=] src-prefix[=] standard-notes[=] stat[=] stdin submodule[=] summary text textconv unified[=] word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"fetch", "Pafj:kmno:pqtuv",
		"all append atomic auto-gc auto-maintenance deepen= depth= dry-run filter= force ipv4 ipv6 jobs= keep multiple negotiate-only negotiation-tip= no-auto-gc no-auto-maintenance no-recurse-submodules no-show-forced-updates no-tags no-write-commit-graph no-write-fetch-head prefetch progress prune prune-tags quiet recurse-submodules-default[=] recurse-submodules[=] refetch refmap= server-option= set-upstream shallow-exclude= shallow-since= show-forced-updates stdin submodule-prefix[=] tags unshallow update-head-ok update-shallow upload-pack= verbose write-commit-graph write-fetch-head"},
	{"for-each-ref", "ps",
		"color[=] contains= count= format= ignore-case merged= no-contains= no-merged= perl points-at= python shell sort= tcl"},
	{"format-patch", "0123456789B::C::DI::M::NO::U::WX::abkl::no:pqsv:w",
		"abbrev[=] add-header= always anchored[=] attach[=] base= binary break-rewrites[=] cc= compact-summary cover-from-description= cover-letter creation-factor= cumulative diff-algorithm[=] dirstat-by-file[=] dirstat[=] dst-prefix[=] encode-email-headers ext-diff filename-max-length= find-copies-harder find-copies[=] find-renames[=] force-in-body-from from[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-if-in-upstream ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] in-reply-to= indent-heuristic inline[=] inter-hunk-context[=] interdiff= irreversible-delete ita-invisible-in-index keep-subject line-prefix[=] minimal no-attach no-base no-binary no-cover-letter no-encode-email-headers no-ext-diff no-force-in-body-from no-indent-heuristic no-notes[=] no-numbered no-prefix no-relative[=] no-rename-empty no-renames no-signature no-stat no-textconv no-thread[=] notes[=] numbered numbered-files numstat output-directory= output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patience progress quiet range-diff= relative[=] rename-empty reroll-count= rfc root rotate-to[=] shortstat signature-file= signature= signoff skip-to[=] src-prefix[=] start-number= stat[=] stdout subject-prefix= suffix= summary text textconv thread[=] to= unified[=] zero-commit"},
	{"fsck", "v",
		"cache connectivity-only dangling full lost-found name-objects progress reflogs root strict tags unreachable verbose"},
	{"gc", "q",
		"aggressive auto cruft force keep-largest-pack no-prune prune[=] quiet"},
	{"grep", "0123456789A:B:C:EFGHILN:O::PWace:f:hilm:nopqrvwz",
		"after-context= all-match and basic-regexp before-context= break cached color[=] column context= count exclude-standard ext-grep extended-regexp files-with-matches files-without-match fixed-strings full-name function-context heading ignore-case invert-match line-number max-count= max-depth= name-only no-color no-exclude-standard no-index no-recursive no-textconv not null only-matching open-files-in-pager[=] or perl-regexp quiet recurse-submodules recursive show-function text textconv threads= untracked word-regexp"},
	{"hash-object", "t:w",
		"literally no-filters path= stdin stdin-paths"},
	{"help", "acgimvw",
		"aliases all config developer-interfaces external-commands guides info man no-aliases no-external-commands user-interfaces verbose web"},
	{"init", "b:q",
		"bare initial-branch= object-format= quiet separate-git-dir= shared[=] template="},
	{"log", "0123456789B::C::DEFG::I::L:M::O::PRS::U::WX::abgil::n:pqstuwz",
		"abbrev-commit abbrev[=] after[=] all all-match alternate-refs ancestry-path[=] anchored[=] author-date-order author[=] basic-regexp before[=] binary bisect boundary branches[=] break-rewrites[=] check cherry cherry-mark cherry-pick children clear-decorations color-moved-ws[=] color-moved[=] color-words[=] color[=] combined-all-paths committer[=] compact-summary cumulative date-order date[=] decorate-refs-exclude= decorate-refs= decorate[=] dense diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] do-walk dst-prefix[=] encoding[=] exclude-first-parent-only exclude-hidden[=] exclude[=] expand-tabs[=] ext-diff extended-regexp find-copies-harder find-copies[=] find-object[=] find-renames[=] first-parent fixed-strings follow format[=] full-diff full-history= full-index function-context glob[=] graph grep-reflog[=] grep[=] histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-missing ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] invert-grep irreversible-delete ita-invisible-in-index left-only left-right line-prefix[=] log-size mailmap max-count[=] max-parents[=] merge merges min-parents[=] minimal name-only name-status no-abbrev-commit no-color no-color-moved no-color-moved-ws no-decorate[=] no-diff-merges[=] no-expand-tabs[=] no-ext-diff no-indent-heuristic no-mailmap no-max-parents[=] no-merges no-min-parents[=] no-notes no-patch no-prefix no-relative[=] no-rename-empty no-renames no-standard-notes no-textconv no-use-mailmap no-walk[=] not notes[=] numstat oneline output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] parents patch patch-with-raw patch-with-stat patience perl-regexp pickaxe-all pickaxe-regex pretty[=] quiet raw reflog regexp-ignore-case relative-date relative[=] remotes[=] remove-empty rename-empty reverse right-only rotate-to[=] shortstat show-linear-break[=] show-notes[=] show-pulls show-signature simplify-by-decoration simplify-merges since-as-filter[=] since[=] single-worktree skip-to[=] skip[=] source sparse src-prefix[=] standard-notes[=] stat[=] stdin submodule[=] summary tags[=] text textconv topo-order unified[=] until[=] use-mailmap walk-reflogs word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"ls-files", "X:cdfikmostuvx:z",
		"abbrev[=] cached debug deduplicate deleted directory empty-directory eol error-unmatch exclude-from= exclude-per-directory= exclude-standard exclude= format= full-name ignored killed modified no-empty-directory others recurse-submodules resolve-undo sparse stage unmerged with-tree="},
	{"ls-remote", "ho:qt",
		"exit-code get-url heads quiet refs server-option= sort= symref tags upload-pack="},
	{"ls-tree", "dlrtz",
		"abbrev[=] format= full-name full-tree long name-only name-status object-only"},
	{"merge", "F:S::X:em:nqs:v",
		"abort allow-unrelated-histories autostash cleanup= commit continue edit ff ff-only file= gpg-sign[=] into-name= log[=] message= no-autostash no-commit no-edit no-ff no-gpg-sign[=] no-log[=] no-overwrite-ignore no-progress no-rerere-autoupdate no-signoff no-squash no-stat no-summary no-verify no-verify-signatures overwrite-ignore progress quiet quit rerere-autoupdate signoff squash stat strategy-option= strategy= summary verbose verify verify-signatures"},
	{"merge-base", "a",
		"all fork-point independent is-ancestor octopus"},
	{"merge-file", "L:pq",
		"diff3 marker-size= ours quiet stdout theirs union zdiff3"},
	{"merge-tree", "z",
		"allow-unrelated-histories messages name-only stdin trivial-merge write-tree"},
	{"mktag", "",
		"strict"},
	{"mktree", "z",
		"batch missing"},
	{"mv", "fknv",
		"dry-run force sparse verbose"},
	{"name-rev", "",
		"all always annotate-stdin exclude= name-only no-undefined refs= stdin tags undefined"},
	{"notes", "C:F:c:fm:nqs:v",
		"abort allow-empty commit dry-run file[=] force ignore-missing message[=] quiet reedit-message[=] ref= reuse-message[=] stdin strategy[=] verbose"},
	{"pack-refs", "",
		"all prune"},
	{"prune", "nv",
		"dry-run exclude-promisor-objects expire= progress verbose"},
	{"pull", "S::X:aefj::kno:pqr::s:tv",
		"all allow-unrelated-histories append atomic autostash cleanup= commit deepen= depth= dry-run edit ff ff-only force gpg-sign[=] ipv4 ipv6 jobs[=] keep log[=] negotiate-only negotiation-tip= no-autostash no-commit no-edit no-ff no-gpg-sign[=] no-log[=] no-rebase no-recurse-submodules no-show-forced-updates no-signoff no-squash no-stat no-summary no-tags no-verify no-verify-signatures prefetch progress prune quiet rebase[=] recurse-submodules[=] refmap= server-option= set-upstream shallow-exclude= shallow-since= show-forced-updates signoff[=] squash stat strategy-option= strategy= summary tags unshallow update-shallow upload-pack= verbose verify verify-signatures"},
	{"push", "dfno:quv",
		"all atomic delete dry-run exec= follow-tags force force-if-includes force-with-lease[=] ipv4 ipv6 mirror no-atomic no-force-if-includes no-force-with-lease no-recurse-submodules[=] no-signed no-thin no-verify porcelain progress prune push-option= quiet receive-pack= recurse-submodules= repo= set-upstream signed[=] tags thin verbose verify"},
	{"range-diff", "B::C::DG:I:M::O:RS:U::WX::abl:psuwz",
		"abbrev[=] anchored= binary break-rewrites[=] check color-moved-ws= color-moved[=] color-words[=] color[=] compact-summary creation-factor= cumulative diff-algorithm= diff-filter= dirstat-by-file[=] dirstat[=] dst-prefix= exit-code ext-diff find-copies-harder find-copies[=] find-object= find-renames[=] follow full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines= ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context= irreversible-delete ita-invisible-in-index ita-visible-in-index left-only line-prefix= minimal name-only name-status no-dual-color no-notes no-patch no-prefix no-renames notes[=] numstat output-indicator-context= output-indicator-new= output-indicator-old= output= patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex quiet raw relative[=] rename-empty right-only rotate-to= shortstat skip-to= src-prefix= stat-count= stat-graph-width= stat-name-width= stat-width= stat[=] submodule[=] summary text textconv unified[=] word-diff-regex= word-diff[=] ws-error-highlight="},
	{"read-tree", "imnquv",
		"aggressive debug-unpack dry-run empty exclude-per-directory= index-output= no-sparse-checkout prefix= quiet recurse-submodules[=] reset trivial verbose"},
	{"rebase", "C:S::X:fimnqr::s:vx:",
		"abort allow-empty-message apply autosquash autostash committer-date-is-author-date continue edit-todo empty= exec= force-rebase fork-point= format[=] gpg-sign[=] ignore-date ignore-whitespace interactive keep-base keep-empty merge no-autosquash no-autostash no-ff no-fork-point no-gpg-sign[=] no-keep-empty no-reapply-cherry-picks no-rerere-autoupdate no-reschedule-failed-exec no-stat no-update-refs no-verify onto= quiet quit reapply-cherry-picks rebase-merges[=] rerere-autoupdate reschedule-failed-exec reset-author-date root show-current-patch signoff skip stat strategy-option= strategy= update-refs verbose verify whitespace="},
	{"reflog", "n",
		"all dry-run expire-unreachable[=] expire[=] rewrite single-worktree stale-fix updateref verbose"},
	{"remote", "fm:npt:v",
		"add delete dry-run mirror[=] no-tags progress prune push tags verbose"},
	{"reset", "Npq",
		"hard intent-to-add keep merge mixed no-refresh patch pathspec-file-nul pathspec-from-file= quiet recurse-submodules[=] refresh soft"},
	{"restore", "SWmpqs:",
		"conflict= ignore-skip-worktree-bits ignore-unmerged merge no-overlay no-progress no-recurse-submodules ours overlay patch pathspec-file-nul pathspec-from-file= progress quiet recurse-submodules[=] source= staged theirs worktree"},
	{"rev-list", "0123456789EFPgin:",
		"abbrev-commit abbrev= after[=] all all-match alternate-refs ancestry-path[=] author-date-order author[=] basic-regexp before[=] bisect bisect-all bisect-vars boundary branches[=] cherry cherry-mark cherry-pick children commit-header committer[=] count date-order date[=] dense disk-usage[=] do-walk encoding[=] exclude-first-parent-only exclude-hidden= exclude-promisor-objects exclude[=] expand-tabs[=] extended-regexp filter-print-omitted filter-provided-objects filter[=] first-parent fixed-strings format[=] full-history= glob[=] graph grep-reflog[=] grep[=] header= ignore-missing in-commit-order indexed-objects invert-grep left-only left-right max-age= max-count= max-parents= merge merges min-age= min-parents= missing[=] no-abbrev-commit no-commit-header no-expand-tabs[=] no-filter no-max-parents[=] no-merges no-min-parents[=] no-object-names no-walk[=] not object-names objects-edge objects-edge-aggressive objects= oneline parents perl-regexp pretty[=] progress[=] quiet reflog regexp-ignore-case relative-date remotes[=] remove-empty reverse right-only show-linear-break[=] show-pulls show-signature simplify-by-decoration simplify-merges since-as-filter[=] since[=] single-worktree skip[=] sparse stdin tags[=] timestamp topo-order unpacked until[=] use-bitmap-index walk-reflogs"},
	{"rev-parse", "q",
		"abbrev-ref[=] absolute-git-dir after[=] all before[=] branches[=] default= disambiguate[=] exclude-hidden[=] exclude[=] flags git-common-dir git-dir git-path= glob[=] is-bare-repository is-inside-git-dir is-inside-work-tree is-shallow-repository keep-dashdash local-env-vars no-flags no-revs not parseopt path-format[=] prefix= quiet remotes[=] resolve-git-dir= revs-only shared-index-path short[=] show-cdup show-object-format[=] show-prefix show-superproject-working-tree show-toplevel since[=] sq sq-quote stop-at-non-option stuck-long symbolic symbolic-full-name tags[=] until[=] verify"},
	{"revert", "S::X:em:ns",
		"abort cleanup= continue edit gpg-sign[=] mainline= no-commit no-edit no-gpg-sign[=] no-rerere-autoupdate quit reference rerere-autoupdate signoff skip strategy-option= strategy="},
	{"rm", "fnqr",
		"cached dry-run force ignore-unmatch pathspec-file-nul pathspec-from-file= quiet sparse"},
	{"shortlog", "0123456789EFPcegin:sw::",
		"after[=] all all-match alternate-refs ancestry-path[=] author[=] basic-regexp before[=] bisect boundary branches[=] cherry cherry-mark cherry-pick committer[=] date[=] dense email exclude-first-parent-only exclude-hidden[=] exclude[=] extended-regexp first-parent fixed-strings format[=] full-history= glob[=] grep-reflog[=] grep[=] group= ignore-missing invert-grep left-only max-count[=] max-parents[=] merge merges min-parents[=] no-max-parents[=] no-merges no-min-parents[=] not numbered perl-regexp reflog regexp-ignore-case remotes[=] remove-empty right-only show-pulls simplify-by-decoration simplify-merges since-as-filter[=] since[=] single-worktree skip[=] sparse stdin summary tags[=] until[=] walk-reflogs"},
	{"show", "B::C::DG::I::L:M::O::RS::U::WX::abl::pqstuwz",
		"abbrev-commit abbrev[=] anchored[=] binary break-rewrites[=] check clear-decorations color-moved-ws[=] color-moved[=] color-words[=] color[=] combined-all-paths compact-summary cumulative decorate-refs-exclude= decorate-refs= decorate[=] diff-algorithm[=] diff-filter[=] diff-merges= dirstat-by-file[=] dirstat[=] dst-prefix[=] encoding[=] expand-tabs[=] ext-diff find-copies-harder find-copies[=] find-object[=] find-renames[=] format[=] full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines[=] ignore-space-at-eol ignore-space-change ignore-submodules[=] indent-heuristic inter-hunk-context[=] irreversible-delete ita-invisible-in-index line-prefix[=] mailmap minimal name-only name-status no-abbrev-commit no-color no-color-moved no-color-moved-ws no-diff-merges[=] no-expand-tabs[=] no-ext-diff no-indent-heuristic no-notes no-patch no-prefix no-relative[=] no-rename-empty no-renames no-standard-notes no-textconv notes[=] numstat oneline output-indicator-context[=] output-indicator-new[=] output-indicator-old[=] output[=] patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex pretty[=] quiet raw relative[=] rename-empty rotate-to[=] shortstat show-notes[=] show-signature skip-to[=] source src-prefix[=] standard-notes[=] stat[=] submodule[=] summary text textconv unified[=] use-mailmap word-diff-regex[=] word-diff[=] ws-error-highlight[=]"},
	{"show-branch", "ag::r",
		"all color[=] current date-order independent list merge-base more[=] no-color no-name reflog[=] remotes sha1-name sparse topics topo-order"},
	{"show-index", "",
		"object-format="},
	{"show-ref", "dqs::",
		"abbrev[=] dereference exclude-existing[=] hash[=] head heads quiet tags verify"},
	{"stash", "Sakm:pqu",
		"all include-untracked index keep-index message= no-include-untracked no-keep-index only-untracked patch pathspec-file-nul pathspec-from-file[=] quiet staged"},
	{"status", "M::bsu::vz",
		"ahead-behind branch column[=] find-renames[=] ignore-submodules[=] ignored[=] long no-ahead-behind no-column[=] no-renames null porcelain[=] renames short show-stash summary-limit= untracked-files[=] verbose"},
	{"submodule", "Nb:fj:n:q",
		"all branch= cached checkout depth= dissociate files force init jobs= merge name= no-fetch no-recommend-shallow no-single-branch progress quiet rebase recommend-shallow recursive reference= remote single-branch summary-limit"},
	{"switch", "C:c:dfmqt:",
		"conflict= create= detach discard-changes force force-create= guess ignore-other-worktrees merge no-guess no-progress no-recurse-submodules no-track orphan= overwrite-ignore progress quiet recurse-submodules[=] track="},
	{"symbolic-ref", "dm:q",
		"delete quiet recurse short"},
	{"tag", "F:adefilm:n::su:v",
		"annotate cleanup= color[=] column[=] contains= create-reflog delete edit file= force format= ignore-case list local-user= merged= message= no-column[=] no-contains= no-merged= no-sign points-at= sign sort= verify"},
	{"unpack-objects", "nqr",
		"max-input-size= strict[=]"},
	{"update-index", "gqz",
		"add again assume-unchanged cacheinfo= chmod= clear-resolve-undo force-remove force-untracked-cache force-write-index fsmonitor fsmonitor-valid ignore-missing ignore-skip-worktree-entries ignore-submodules index-info index-version= info-only no-assume-unchanged no-fsmonitor-valid no-skip-worktree really-refresh refresh remove replace skip-worktree split-index stdin test-untracked-cache unmerged unresolve untracked-cache verbose"},
	{"update-ref", "dm:z",
		"create-reflog no-deref stdin"},
	{"var", "l",
		""},
	{"verify-commit", "v",
		"raw verbose"},
	{"verify-pack", "sv",
		"object-format= stat-only verbose"},
	{"verify-tag", "v",
		"format= raw verbose"},
	{"version", "",
		"build-options"},
	{"whatchanged", "L:q",
		"clear-decorations decorate-refs-exclude= decorate-refs= decorate[=] mailmap quiet source use-mailmap"},
	{"worktree", "B:b:dfnqvz",
		"checkout detach dry-run expire= force git-path= guess-remote lock no-checkout no-guess-remote no-track porcelain quiet reason= track verbose"},
	{"write-tree", "",
		"missing-ok prefix="},
}

// optionsNegated are the programs that take --no-NAME for each long
// option NAME they list, and NAME for one listed as no-NAME: git's
// parse-options, rsync's --no-OPTION, curl's and wget's boolean options.
var optionsNegated = []string{"git", "rsync", "curl", "wget"}

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
	return w.unknownOf(c, c.name, p.options(), c.args, p.posix)
}

// gitOptionsUnknown is optionsUnknown for a git subcommand that has a
// table (gitOptionTables): spec are the options gitCall reads, args the
// subcommand's. git stash list and show take git log's options.
func (w *walker) gitOptionsUnknown(c call, sub string, spec []opt, args []word) bool {
	known := slices.Clone(spec)
	known = append(known, gitTable(sub)...)
	if sub == "stash" {
		known = append(known, gitTable("log")...)
	}
	if len(known) == len(spec) {
		return false
	}
	// After --end-of-options every word is an operand.
	if i := slices.IndexFunc(args, func(a word) bool { return a.static() && a.value() == "--end-of-options" }); i >= 0 {
		args = args[:i]
	}
	return w.unknownOf(c, "git", known, args, false)
}

// gitTable is the options a git subcommand's table (gitOptionTables)
// lists, none when it has none: parsed the first time a line runs the
// subcommand and kept (gitTables), as a program's table is. The caller
// must not change it.
func gitTable(sub string) []opt {
	if o, ok := gitTables.Load(sub); ok {
		return o.([]opt)
	}
	var o []opt
	if i := slices.IndexFunc(gitOptionTables, func(t optionTable) bool { return t.name == sub }); i >= 0 {
		o = gitOptionTables[i].opts()
	}
	o2, _ := gitTables.LoadOrStore(sub, o)
	return o2.([]opt)
}

// gitTables are the git subcommands' tables parsed so far, by name
// (gitTable); nil for a subcommand with none.
var gitTables sync.Map

// unknownOf refuses the first option of args that spec does not list
// (-h, --help and --version aside, and --no-NAME or NAME negated for a
// program in optionsNegated). program names the program in the reason.
// True when it refused.
func (w *walker) unknownOf(c call, program string, spec []opt, args []word, posix bool) bool {
	_, _, _, unknown := scanOpts(spec, args, posix, false)
	for _, u := range unknown {
		name := strings.SplitN(u, "=", 2)[0]
		if name == "--help" || name == "--version" || program == "git" && name == "-h" || slices.Contains(optionsNegated, program) && negated(spec, name) {
			continue
		}
		w.refuse(refused(c.text, "%s %s is an option bn does not know of %s, and one bn has not read in its manual may write a file or run a program; bn refuses it under patterns: leave it out, ask for it to be added to bn's table of %s's options, or allow the shell whole", c.name, name, c.name, c.name))
		return true
	}
	return false
}

// negated: the long option name is --no-NAME of a listed NAME, or NAME
// of a listed no-NAME.
func negated(spec []opt, name string) bool {
	long, ok := strings.CutPrefix(name, "--")
	if !ok {
		return false
	}
	if rest, ok := strings.CutPrefix(long, "no-"); ok && matchLong(spec, rest) != nil {
		return true
	}
	return matchLong(spec, "no-"+long) != nil
}
