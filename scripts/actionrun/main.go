// Command actionrun runs the steps of bn's composite GitHub Action
// (action.yml) on this machine as the runner would, so that
// scripts/test-install.sh tests them without GitHub: each step's `run`
// in bash (-eo pipefail), its env and working-directory with the
// ${{ inputs.NAME }} expressions filled from the inputs given or their
// defaults, RUNNER_TEMP and GITHUB_ACTION_PATH set, and what a step
// appends to $GITHUB_PATH put on PATH for the steps after it.
//
//	actionrun [-action action.yml] [-temp DIR] [NAME=VALUE ...]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
)

// Action is the part of action.yml a composite action's run needs.
type Action struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Branding    map[string]string `yaml:"branding"`
	Inputs      map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []Step `yaml:"steps"`
	} `yaml:"runs"`
}

// Step is one composite step.
type Step struct {
	Name             string            `yaml:"name"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	Uses             string            `yaml:"uses"`
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

func main() {
	actionFile := flag.String("action", "action.yml", "the action's definition")
	temp := flag.String("temp", os.TempDir(), "the runner's temporary directory (RUNNER_TEMP)")
	flag.Parse()
	if err := run(*actionFile, *temp, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "actionrun:", err)
		os.Exit(1)
	}
}

func run(actionFile, temp string, args []string) error {
	data, err := os.ReadFile(actionFile)
	if err != nil {
		return err
	}
	var a Action
	if err := yaml.UnmarshalWithOptions(data, &a, yaml.Strict()); err != nil {
		return fmt.Errorf("%s: %w", actionFile, err)
	}
	if a.Runs.Using != "composite" {
		return fmt.Errorf("%s: runs.using is %q, not composite", actionFile, a.Runs.Using)
	}
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
	}
	for _, arg := range args {
		name, value, ok := strings.Cut(arg, "=")
		if _, known := a.Inputs[name]; !ok || !known {
			return fmt.Errorf("%q: not NAME=VALUE for an input of %s", arg, actionFile)
		}
		inputs[name] = value
	}
	fill := func(s string) (string, error) {
		var bad error
		out := expr.ReplaceAllStringFunc(s, func(m string) string {
			e := expr.FindStringSubmatch(m)[1]
			name, ok := strings.CutPrefix(e, "inputs.")
			if _, known := inputs[name]; !ok || !known {
				bad = fmt.Errorf("the expression %q is not an input this runner knows", m)
			}
			return inputs[name]
		})
		return out, bad
	}
	actionPath, err := filepath.Abs(filepath.Dir(actionFile))
	if err != nil {
		return err
	}
	githubPath := filepath.Join(temp, "github_path")
	if err := os.WriteFile(githubPath, nil, 0o644); err != nil {
		return err
	}
	path := os.Getenv("PATH")
	for i, st := range a.Runs.Steps {
		if st.Uses != "" || st.Shell != "bash" {
			return fmt.Errorf("step %d (%s): only `run` steps in bash are run here", i+1, st.Name)
		}
		// Expressions are filled in env and working-directory only: the
		// scripts read inputs from the environment, never from text
		// pasted into them.
		if expr.MatchString(st.Run) {
			return fmt.Errorf("step %d (%s): its script holds an expression; pass inputs through env", i+1, st.Name)
		}
		dir, err := fill(st.WorkingDirectory)
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, st.Name, err)
		}
		script := filepath.Join(temp, fmt.Sprintf("step-%d.sh", i+1))
		if err := os.WriteFile(script, []byte(st.Run), 0o644); err != nil {
			return err
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.Env = append(os.Environ(), "PATH="+path, "RUNNER_TEMP="+temp, "GITHUB_PATH="+githubPath, "GITHUB_ACTION_PATH="+actionPath, "GITHUB_ACTIONS=true", "CI=true")
		for k, v := range st.Env {
			if v, err = fill(v); err != nil {
				return fmt.Errorf("step %d (%s): %w", i+1, st.Name, err)
			}
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		fmt.Fprintf(os.Stderr, "actionrun: step %d: %s\n", i+1, st.Name)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, st.Name, err)
		}
		added, err := readPaths(githubPath)
		if err != nil {
			return err
		}
		if len(added) > 0 {
			path = strings.Join(append(added, os.Getenv("PATH")), string(os.PathListSeparator))
		}
	}
	return nil
}

// readPaths reads $GITHUB_PATH: each line a directory, the newest first
// on PATH.
func readPaths(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var dirs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			dirs = append([]string{line}, dirs...)
		}
	}
	return dirs, sc.Err()
}
