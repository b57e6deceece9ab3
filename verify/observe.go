package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/par"
	"github.com/binnacle-dev/bn/probe"
)

// How a client is run: the project as a whole, its agents side by side.
const (
	// AsSubAgents: one client run starts every agent at once as a
	// sub-agent (dialect.Info.SubWithheld).
	AsSubAgents = "one run, every agent a sub-agent"
	// AsServer: one server loads the project and says what it grants
	// each agent (OpenCode and Kilo).
	AsServer = "one server for every agent"
	// OneByOne: a client run per agent, two at a time.
	OneByOne = "one run per agent"
)

// sideBySide is how many client runs verify makes at once for a client
// that takes one agent a run.
const sideBySide = 2

// seen is what a client said of one subject.
type seen struct {
	obs probe.Observation
	err error
	// notLoaded: the client loaded the project, and not this agent.
	notLoaded bool
	// sub: seen as a sub-agent, offered less than at top level
	// (dialect.Info.SubWithheld).
	sub bool
}

// client runs one tool's client on the subjects.
type client struct {
	ctx      context.Context // Options.Context, never nil
	info     *dialect.Info
	bin      string
	env      []string
	run      probe.Runner
	runBatch func(tool string, b probe.Batch) (probe.BatchResult, error)
	atOnce   int // the sub-agents a run starts at most (probe.AtOnce; 0: no limit)
	progress func(done int)
}

// observe asks the client about every subject, the project as a whole
// where the client loads one: how it ran (and why not as a whole), the
// files for which it refused the whole project, and what it said of each
// subject.
func (c client) observe(subs []subject) (how, why string, refused []string, out []seen) {
	var err error
	switch {
	case c.info.SubWithheld != nil:
		if out, err = c.batch(subs); err == nil {
			return AsSubAgents, "", nil, out
		}
	case probe.Serves(c.info.Name):
		if out, refused, err = c.served(subs); err == nil {
			return AsServer, "", refused, out
		}
	}
	if err != nil {
		// The client did not load the project: each agent is run alone.
		why = firstLine(err.Error())
	}
	every := make([]int, len(subs))
	for i := range every {
		every[i] = i
	}
	return OneByOne, why, nil, c.each(subs, every)
}

// batch starts the subjects as sub-agents of client runs, each offered
// as many as the client starts at once (probe.AtOnce: the Copilot CLI
// 32; the first run every agent where the client has no limit), side by
// side as many as there are cores; those a run did not start go to
// further runs, each offered as many as the first wave started, as long
// as each starts some. Every run loads the whole project, so a sub-agent
// is offered in any of them what it is offered in another. An agent no
// run started, or whose limits bn's hook enforces, is run alone at top
// level: no probe shows the client running a sub-agent's own hooks, and
// the hook is what holds such an agent to its definition.
func (c client) batch(subs []subject) ([]seen, error) {
	files := map[string]string{}
	var pending []int
	for i, s := range subs {
		if s.file != "" {
			files[s.rel] = s.file
			if !c.hooks(s) {
				pending = append(pending, i)
			}
		}
	}
	out := make([]seen, len(subs))
	started := map[int]bool{}
	var loaded []string
	// A run offered more than the client starts is made to refuse the
	// rest, which costs it as much as starting them.
	size := len(pending)
	if most := c.atOnce; most > 0 && size > most {
		runs := (size + most - 1) / most
		size = (size + runs - 1) / runs // even runs: they end together
	}
	for wave := 0; len(pending) > 0; wave++ {
		chunks := slices.Collect(slices.Chunk(pending, max(size, 1)))
		res, errs := c.runs(subs, files, chunks, len(started), probe.BatchTime(len(pending)))
		if wave == 0 {
			// The project as the client loads it, from a run that loaded
			// it; where none did, the client is not asked so.
			k := slices.IndexFunc(errs, func(err error) bool { return err == nil })
			if k < 0 {
				return nil, errs[0]
			}
			loaded = res[k].Loaded
		}
		var next []int
		most := 0 // the most a run of the wave started
		for k, chunk := range chunks {
			var left []int
			for _, i := range chunk {
				switch o, ok := res[k].Observations[subs[i].id]; {
				case ok:
					out[i], started[i] = seen{obs: o, sub: true}, true
				case loaded == nil || slices.Contains(loaded, subs[i].id):
					left = append(left, i)
				}
			}
			most = max(most, len(res[k].Observations))
			if errs[k] == nil && len(left) < len(chunk) {
				next = append(next, left...) // a run that failed or started none: its rest run alone
			}
		}
		if wave == 0 {
			size = most
		}
		pending = next
	}
	// The runs alone go on counting from the agents started.
	alone, each := []int(nil), c
	if c.progress != nil {
		each.progress = func(n int) { c.progress(len(started) + n) }
	}
	for i, s := range subs {
		switch {
		case s.file == "":
			out[i].err = errors.New(s.unread)
		case loaded != nil && !slices.Contains(loaded, s.id):
			out[i].notLoaded = true
		case !started[i]:
			alone = append(alone, i)
		}
	}
	for i, o := range each.each(subs, alone) {
		if slices.Contains(alone, i) {
			out[i] = o
		}
	}
	return out, nil
}

// runs makes a client run for each chunk of subjects, each holding the
// project's files, side by side as many as there are cores, each bounded
// by timeout: the runs share the cores, so each may take as long as one
// run of them all; progress counts on from done.
func (c client) runs(subs []subject, files map[string]string, chunks [][]int, done int, timeout time.Duration) ([]probe.BatchResult, []error) {
	res, errs := make([]probe.BatchResult, len(chunks)), make([]error, len(chunks))
	var mu sync.Mutex
	counts := make([]int, len(chunks))
	par.Do(len(chunks), 1, func(k int) {
		b := probe.Batch{Context: c.ctx, Bin: c.bin, Files: files, Env: c.env, Timeout: timeout}
		if c.progress != nil {
			b.Progress = func(n int) {
				mu.Lock()
				defer mu.Unlock()
				counts[k] = n
				total := done
				for _, n := range counts {
					total += n
				}
				c.progress(total)
			}
		}
		for _, i := range chunks[k] {
			b.Runs = append(b.Runs, probe.Run{Name: subs[i].id, Uses: subs[i].uses})
		}
		res[k], errs[k] = c.runBatch(c.info.Name, b)
	})
	return res, errs
}

// hooks says whether bn's hook holds the subject to its definition.
func (c client) hooks(s subject) bool {
	return s.hooked != nil && len(dialect.HookKinds(c.info, s.hooked)) > 0
}

// served loads the project in one server, then each file the server
// refuses the project for is set aside (and reported) until it loads the
// rest.
func (c client) served(subs []subject) ([]seen, []string, error) {
	files := map[string]string{}
	for _, s := range subs {
		if s.file != "" {
			files[s.rel] = s.file
		}
	}
	out := make([]seen, len(subs))
	var refused []string
	// Each refusal sets a file aside, or ends the loop.
	for {
		srv, err := probe.StartServer(c.ctx, c.info.Name, c.bin, files, c.env)
		if err != nil {
			return nil, nil, err
		}
		loaded, err := srv.Agents()
		why, isRefusal := probe.Refused(err)
		if isRefusal {
			srv.Close()
			refused = append(refused, why)
			i := slices.IndexFunc(subs, func(s subject) bool { return strings.HasPrefix(why, s.rel+":") })
			if i < 0 || files[subs[i].rel] == "" {
				return nil, nil, fmt.Errorf("%s refuses the project: %s", c.info.Title, why)
			}
			delete(files, subs[i].rel)
			out[i].obs = probe.Observation{Offered: []string{}, Rejected: strings.TrimPrefix(why, subs[i].rel+": ")}
			continue
		}
		if err != nil {
			srv.Close()
			return nil, nil, err
		}
		ids, err := srv.ToolIDs()
		srv.Close()
		if err != nil {
			return nil, nil, err
		}
		for i, s := range subs {
			switch rules, ok := loaded[s.id]; {
			case out[i].obs.Rejected != "":
			case s.file == "":
				out[i].err = errors.New(s.unread)
			case !ok:
				out[i].notLoaded = true
			default:
				out[i].obs = srv.Observe(probe.Run{Name: s.id, Uses: s.uses}, ids, rules)
			}
		}
		if c.progress != nil {
			c.progress(len(subs))
		}
		return out, refused, nil
	}
}

// each runs the client once for each subject of only, sideBySide at a
// time; the others are left unseen.
func (c client) each(subs []subject, only []int) []seen {
	out := make([]seen, len(subs))
	var mu sync.Mutex
	done := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for range sideBySide {
		wg.Go(func() {
			for i := range work {
				out[i] = c.one(subs[i])
				mu.Lock()
				done++
				if c.progress != nil {
					c.progress(done)
				}
				mu.Unlock()
			}
		})
	}
	for _, i := range only {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

// one runs the client as one agent, alone in its project.
func (c client) one(s subject) seen {
	if s.file == "" {
		return seen{err: errors.New(s.unread)}
	}
	obs, err := c.run(probe.Run{Context: c.ctx, Bin: c.bin, Name: s.id, File: s.file, Env: c.env, Def: s.hooked, Uses: s.uses})
	return seen{obs: obs, err: err}
}
