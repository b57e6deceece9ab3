package docs

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// page is one markdown file: the anchors its headings make and the link
// destinations it holds.
type page struct {
	anchors map[string]bool
	links   []string
}

func read(t *testing.T, md goldmark.Markdown, path string) page {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	doc := md.Parser().Parse(text.NewReader(src))
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			a := slug(plain(n, src))
			if k := seen[a]; k > 0 {
				seen[a]++
				a += "-" + strconv.Itoa(k)
			} else {
				seen[a] = 1
			}
			p.anchors[a] = true
		case *ast.Link:
			p.links = append(p.links, string(n.Destination))
		case *ast.Image:
			p.links = append(p.links, string(n.Destination))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// plain is a heading's text as GitHub reads it for its anchor: code spans
// and emphasis contribute their text.
func plain(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
			case *ast.String:
				b.Write(c.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is GitHub's anchor for a heading: lower case, spaces to hyphens,
// every other character but letters, digits, '-' and '_' dropped.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestLinks: every link in README.md and docs/ is relative, stays in the
// repository, and leads to a file that exists and, in a markdown file, a
// heading it has. README never points outside the repository.
func TestLinks(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	pages := map[string]page{}
	for _, f := range files {
		pages[f] = read(t, md, f)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		for _, link := range pages[f].links {
			u, err := url.Parse(link)
			if err != nil {
				t.Errorf("%s: link %q: %v", rel, link, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
				t.Errorf("%s: link %q points outside the repository; link a file in it with a relative path", rel, link)
				continue
			}
			target := f
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(f), filepath.FromSlash(u.Path))
				if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
					t.Errorf("%s: link %q leaves the repository", rel, link)
					continue
				}
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s: link %q: no such file in the repository", rel, link)
					continue
				}
			}
			if u.Fragment == "" {
				continue
			}
			p, ok := pages[target]
			if !ok && strings.HasSuffix(target, ".md") {
				p = read(t, md, target)
				pages[target] = p
			}
			if !p.anchors[u.Fragment] {
				t.Errorf("%s: link %q: %s has no heading #%s", rel, link, filepath.Base(target), u.Fragment)
			}
		}
	}
}
