package resolver

import (
	"io/fs"
	"reflect"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/embedded"
)

// TestBuiltinModelsAreModelsKDL holds the compiled-in catalog
// (models_gen.go) to what embedded/agents/models.kdl decodes to, and the
// file free of errors.
func TestBuiltinModelsAreModelsKDL(t *testing.T) {
	src, err := fs.ReadFile(embedded.Agents(), modelsFile)
	if err != nil {
		t.Fatal(err)
	}
	f := config.Decoder{Sections: dialect.All()}.KDL(EmbeddedLayer().FileLabel(modelsFile), src).File
	if err := f.Diags.Err(); err != nil {
		t.Fatalf("embedded/agents/models.kdl: %v", err)
	}
	if got := builtinModels(); !reflect.DeepEqual(got, f.Models) {
		t.Errorf("resolver/models_gen.go is not what embedded/agents/models.kdl decodes to: run go generate ./resolver")
	}
}
