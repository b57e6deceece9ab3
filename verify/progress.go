package verify

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// progress keeps one line on a terminal saying how far each client is.
type progress struct {
	w     io.Writer
	mu    sync.Mutex
	order []string
	done  map[string][2]int
	last  string
}

// update records a client's progress, and redraws the line when it says
// something new.
func (p *progress) update(target string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		p.done = map[string][2]int{}
	}
	if !slices.Contains(p.order, target) {
		p.order = append(p.order, target)
		slices.Sort(p.order)
	}
	p.done[target] = [2]int{done, total}
	var parts []string
	for _, t := range p.order {
		n := p.done[t]
		parts = append(parts, fmt.Sprintf("%s %d/%d", t, n[0], n[1]))
	}
	line := "verifying: " + strings.Join(parts, ", ")
	if line != p.last {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.last = line
	}
}

// end clears the line, if there is one (p may be nil).
func (p *progress) end() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
