package emit

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetMember(t *testing.T) {
	server := map[string]string{"command": "bn"}
	tests := []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"servers\": {\n    \"binnacle\": {\n      \"command\": \"bn\"\n    }\n  }\n}\n"},
		{"keeps others, order and comments",
			"{\n  // my servers\n  \"servers\": {\n    \"z\": {\"command\": \"z\"}, /* keep */\n    \"a\": {}\n  },\n  \"inputs\": []\n}\n",
			"{\n  // my servers\n  \"servers\": {\n    \"z\": {\"command\": \"z\"}, /* keep */\n    \"a\": {},\n    \"binnacle\": {\n      \"command\": \"bn\"\n    }\n  },\n  \"inputs\": []\n}\n"},
		{"replaces only its own entry",
			"{\"servers\": {\"binnacle\": {\"command\": \"old\"}, \"x\": 1}}",
			"{\"servers\": {\"binnacle\": {\n      \"command\": \"bn\"\n    }, \"x\": 1}}"},
		{"trailing comma",
			"{\n\t\"servers\": {\n\t\t\"a\": 1,\n\t},\n}",
			"{\n\t\"servers\": {\n\t\t\"a\": 1,\n\t\t\"binnacle\": {\n\t\t\t\"command\": \"bn\"\n\t\t},\n\t},\n}"},
		{"missing parent", "{\"inputs\": []}", "{\"inputs\": [],\n  \"servers\": {\n    \"binnacle\": {\n      \"command\": \"bn\"\n    }\n  }}"},
		{"empty object", "{}", "{\n  \"servers\": {\n    \"binnacle\": {\n      \"command\": \"bn\"\n    }\n  }\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := SetMember([]byte(tt.in), []string{"servers", "binnacle"}, server)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
			_, err = parseJSONC(out)
			require.NoError(t, err, "the result must parse again")
		})
	}
}

func TestSetMemberRejects(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"{\"servers\": {", "1:14: unexpected end of file"},
		{"{\"servers\": []}", `"servers" is not an object`},
		{"[1]", "1:1: expected a JSON object"},
		{"{\"a\": 1} x", "1:10: unexpected text after the value"},
		{"{\"a\" 1}", `1:6: expected ':' after key "a"`},
		{"{\"a\": tru}", "1:7: expected a value"},
		{"{/* open", "1:2: comment never closed"},
		{"{\"a\": 1 \"b\": 2}", "1:9: expected ',' or '}'"},
	} {
		_, err := SetMember([]byte(tt.in), []string{"servers", "binnacle"}, 1)
		assert.ErrorContains(t, err, tt.want, tt.in)
	}
}

func TestMCPDocuments(t *testing.T) {
	for _, c := range MCPConfigs {
		var v map[string]map[string]map[string]any
		require.NoError(t, json.Unmarshal(c.Document(), &v), c.Name)
		assert.Equal(t, "bn", v[c.Servers[0]]["binnacle"]["command"], c.Name)
	}
}

func FuzzSetMember(f *testing.F) {
	for _, s := range []string{"{}", "{\"servers\": {\"a\": 1,}}", "// c\n{\"servers\": {}}", "[", "{\"servers\": null}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := SetMember([]byte(in), []string{"servers", "binnacle"}, map[string]string{"command": "bn"})
		if err != nil {
			return
		}
		if _, err := parseJSONC(out); err != nil {
			t.Fatalf("SetMember(%q) = %q, which does not parse: %v", in, out, err)
		}
	})
}
