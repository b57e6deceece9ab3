package importer

import (
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// readCodex reads a Codex agent (.toml): the prompt is
// developer_instructions, the other keys are fields.
func readCodex(src []byte) (map[string]any, string, error) {
	fields := map[string]any{}
	if err := toml.Unmarshal(src, &fields); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, "", fmt.Errorf("invalid TOML at %d:%d: %s", line, col, de.Error())
		}
		return nil, "", fmt.Errorf("invalid TOML: %w", err)
	}
	body, _ := fields["developer_instructions"].(string)
	delete(fields, "developer_instructions")
	return fields, body, nil
}
