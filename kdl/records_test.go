package kdl

import (
	"strings"
	"testing"
)

func TestReadRecords(t *testing.T) {
	check := func(r Record) string {
		if r.Fields["k"] == "" {
			return "no k"
		}
		return ""
	}
	for _, tt := range []struct{ src, want string }{
		{`rec "a" { k "1"; }` + "\n" + `rec "b" { k "2"; }`, ""},
		{`other "a" { k "1"; }`, "f:1:1: expected rec NAME { … }; fix it"},
		{`rec "a" { k 1; }`, "f:1:1: k takes one string; fix it"},
		{`rec "a" { k "1"; z "2"; }`, `f:1:1: unknown key "z"; fix it`},
		{`rec "a" { }`, "f:1:1: no k; fix it"},
		{`rec "a" {`, "f: "},
	} {
		recs, err := ReadRecords("f", []byte(tt.src), "rec", []string{"k"}, check, "fix it")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.src, err)
		case tt.want == "" && (len(recs) != 2 || recs[1].Name != "b" || recs[1].Fields["k"] != "2"):
			t.Errorf("%q: %+v", tt.src, recs)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}
