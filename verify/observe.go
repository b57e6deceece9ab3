package verify

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/dialect"
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
	info     *dialect.Info
	bin      string
	env      []string
	run      probe.Runner
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

// batch starts every subject at once as a sub-agent of one client run;
// an agent it did not start, or whose limits bn's hook enforces, is run
// alone at top level: no probe shows the client running a sub-agent's
// own hooks, and the hook is what holds such an agent to its definition.
func (c client) batch(subs []subject) ([]seen, error) {
	b := probe.Batch{Bin: c.bin, Files: map[string]string{}, Env: c.env, Progress: c.progress}
	for _, s := range subs {
		if s.file != "" {
			b.Files[s.rel] = s.file
		}
	}
	for _, s := range subs {
		if s.file != "" && !c.hooks(s) {
			b.Runs = append(b.Runs, probe.Run{Name: s.id, Uses: s.uses})
		}
	}
	res, err := probe.RunBatch(c.info.Name, b)
	if err != nil {
		return nil, err
	}
	out := make([]seen, len(subs))
	var alone []int
	for i, s := range subs {
		switch o, ok := res.Observations[s.id]; {
		case s.file == "":
			out[i].err = errors.New(s.unread)
		case res.Loaded != nil && !slices.Contains(res.Loaded, s.id):
			out[i].notLoaded = true
		case ok:
			out[i] = seen{obs: o, sub: true}
		default:
			alone = append(alone, i)
		}
	}
	for i, o := range c.each(subs, alone) {
		if slices.Contains(alone, i) {
			out[i] = o
		}
	}
	return out, nil
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
		srv, err := probe.StartServer(c.info.Name, c.bin, files, c.env)
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
	obs, err := c.run(probe.Run{Bin: c.bin, Name: s.id, File: s.file, Env: c.env, Def: s.hooked, Uses: s.uses})
	return seen{obs: obs, err: err}
}
