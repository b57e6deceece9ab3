package dialecttest

import (
	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
)

// BuiltInCatalog is the model catalog built into bn, as a project with no
// model entries of its own sees it.
func BuiltInCatalog() *agents.Catalog {
	return resolver.Load([]resolver.Layer{resolver.EmbeddedLayer()}, config.Decoder{Sections: dialect.All()}).Catalog()
}
