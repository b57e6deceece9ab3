package enforce

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
)

// sed scripts and awk programs are read as GNU sed and the awks read them:
// a "/" in a bracket expression does not end a sed regex, a "/" after an
// operator starts an awk regex; what bn cannot place is refused.
func TestSedAwkScripts(t *testing.T) {
	root, home := repo(t)
	tools := agents.Tools{Allow: []string{"read", "shell(sed:*)", "shell(awk:*)", "shell(mawk:*)"}}
	cases := []shellCase{
		// sed: bracket expressions hold the delimiter
		{`sed 's/[/]/x/;e touch /tmp/m2' README.md`, false, "the e command runs a command"},
		{`sed -n 's/[/]/x/;1e rm -f README.md' README.md`, false, "the e command runs a command"},
		{`sed 's/[[:alpha:]/]/x/;e touch /tmp/m' f`, false, "the e command runs a command"},
		{`sed 's/[]/]/x/;e touch /tmp/m' f`, false, "the e command runs a command"},
		{`sed 's/[^]/]/x/;e touch /tmp/m' f`, false, "the e command runs a command"},
		{`sed 's/[[.].]/]/x/;e touch /tmp/m' f`, false, "the e command runs a command"},
		{`sed 's/[/]/x/;w .claude/agents/echoer.rules' README.md`, false, "the w command writes a file"},
		{`sed 's/[/]/x/w out' f`, false, "the w flag writes a file"},
		{`sed '/[/]/e touch x' f`, false, "the e command runs a command"},
		{`sed '\,[,],e touch x' f`, false, "the e command runs a command"},
		{`sed 's|[|]|x|;e touch x' f`, false, "the e command runs a command"},
		{`sed 's/[a[:/]/x/' f`, false, "bn cannot read"},
		// sed: labels end at blanks, text at an unescaped newline
		{"sed -n ':a e touch x' f", false, "the e command runs a command"},
		{"sed -n '$!bx e touch x;:x' f", false, "the e command runs a command"},
		{"sed -n 'a foo\\\\\ne touch x' f", false, "the e command runs a command"},
		{"sed -e 'a\\' -e 'e touch x' f", false, "bn cannot be sure"},
		{"sed -e 'p' -e 'e touch x' f", false, "the e command runs a command"},
		{`sed --expression='1e touch x' f`, false, "the e command runs a command"},
		// sed: ordinary scripts
		{`sed 's/[/]/x/' f`, true, ""},
		{`sed 's/[\/]/x/g' f`, true, ""},
		{`sed 's/[]]/x/;s/[^]]/y/' f`, true, ""},
		{`sed -E 's/[[:space:]]+$//' f`, true, ""},
		{`sed -n '1,20p' f`, true, ""},
		{`sed 's/foo/bar/g' f`, true, ""},
		{`sed ':a;N;$!ba;s/\n/ /g' f`, true, ""},
		{`sed 'y/abc/xyz/' f`, true, ""},
		{`sed '/^#/d;/^$/d' f`, true, ""},
		{`sed -n '/start/,/end/{/end/!p}' f`, true, ""},
		{`sed 's|http://www.a|https://www.a|g' f`, true, ""},
		{`sed 's/http:\/\/www/x/' f`, true, ""},
		{`sed '/warning/d' f`, true, ""},
		{`sed '1i header' f`, true, ""},
		{`sed -z 's/\n/,/g' f`, true, ""},
		{`sed 's/x/e/;s/e\b/E/g;s/; e/x/' f`, true, ""},
		// awk: a "/" after an operator starts a regular expression
		{`awk 'BEGIN { a = 1 + /"/ ; system("touch /tmp/m4") ; b = "x" }'`, false, "system() runs a command"},
		{`awk 'BEGIN { a = 1 - /"/ ; system("touch x") ; b = "x" }'`, false, "system() runs a command"},
		{`awk 'BEGIN { a = 1 * /"/ ; system("touch x") ; b = "x" }'`, false, "system() runs a command"},
		{`awk 'BEGIN { a = 1 < /"/ ; system("touch x") ; b = "x" }'`, false, "system() runs a command"},
		{`awk 'BEGIN { a = !/"/ ; print 1 | "sh" ; b = "x" }'`, false, "a pipe runs a command"},
		{`awk 'BEGIN { a = 1 + /"/ ; print 1 > "out" ; b = "x" }'`, false, "print > file writes a file"},
		{`awk '1system("touch x")'`, false, "system() runs a command"},
		{`awk '$1system("touch x")'`, false, "system() runs a command"},
		{`awk 'BEGIN { a++ / 1; print 1 | "sh"; b = 1 / 1 }'`, false, "awks differ"},
		{`awk '$0 ~ /[/]/ { n++ } END { print n }' f`, false, "awks differ"},
		// awk: ordinary programs
		{`awk '{print $1}' f`, true, ""},
		{`awk -F: '$3 > 100 {print $1}' /etc/passwd`, true, ""},
		{`awk 'NR%2==0' f`, true, ""},
		{`awk '{s+=$2} END {print s/NR}' f`, true, ""},
		{`awk '{print $1/$2, ($3)/2, a[1]/2}' f`, true, ""},
		{`awk '/foo|bar/ {print}' f`, true, ""},
		{`awk '$1 ~ /^a|b$/' f`, true, ""},
		{`awk 'length($0) > 80' f`, true, ""},
		{`awk '{printf "| %s | %s |\n", $1, $2}' f`, true, ""},
		{`awk '{print "a>b", "x@y"}' f`, true, ""},
		{`awk '{print $1/2, "a|b"}' f`, false, "bn cannot be sure this | is not one"},
		{`awk '{print > "/dev/stderr"}' f`, false, "print > file writes a file"},
	}
	runShell(t, tools, Context{Root: root, Home: home}, cases)
	// Under a shell allowed whole, the same scripts are seen for the deny
	// rules.
	noRm := agents.Tools{All: true, Deny: []string{"shell(rm:*)"}}
	runShell(t, noRm, Context{Root: root, Home: home}, []shellCase{
		{`sed -n 's/[/]/x/;1e rm -f README.md' README.md`, false, "the e command runs a command"},
		{`awk 'BEGIN { a = 1 + /"/ ; system("rm x") ; b = "x" }'`, false, "system() runs a command"},
		{`sed 's/[/]/x/' f`, true, ""},
	})
}
