//go:build linux

package enforce

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The sandbox: the test binary, started again in new mount, PID,
// network, IPC and UTS namespaces, runs each line in bash or zsh chrooted
// into an overlay of the whole file system, where every program in
// /usr/bin, /usr/sbin, /usr/local/bin and /usr/local/sbin (and /bin and
// /sbin, which link there) is a recorder (testdata/recorder), which
// logs the path it was run as and its arguments, and exits. The shells
// trace every command they run, builtins included (xtrace). Every write
// lands in the overlay's upper directory, which is read afterwards.

const (
	sandboxEnv = "BN_ORACLE_SANDBOX"
	oracleDir  = "/.bn-oracle"
)

// oracleRole runs the test binary as the sandbox, when the oracle
// started it so.
func oracleRole() (int, bool) {
	job := os.Getenv(sandboxEnv)
	if job == "" {
		return 0, false
	}
	if err := sandbox(job); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		return 1, true
	}
	return 0, true
}

type oracleJob struct {
	Recorder string
	Base     string
	Result   string
	Names    []string
	Runs     []oracleRun
	Workers  int
}

// buildRecorder builds testdata/recorder, or skips where the oracle
// cannot run (not root, no bash or zsh, no go command).
func buildRecorder(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the oracle needs root to make mount namespaces (run as root, or in CI)")
	}
	for _, sh := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Skipf("the oracle runs lines in bash and zsh; %s is not installed (apt-get install -y zsh)", sh)
		}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the oracle builds its recorder with the go command, which is not on PATH")
	}
	rec := filepath.Join(t.TempDir(), "recorder")
	build := exec.Command(goTool, "build", "-trimpath", "-o", rec, "./testdata/recorder")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the recorder: %v\n%s", err, out)
	}
	return rec
}

// runOracle runs lines in the sandbox with the recorder rec, or skips
// where namespaces are not permitted.
func runOracle(t *testing.T, rec string, runs []oracleRun) []oracleResult {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	job := oracleJob{Recorder: rec, Base: filepath.Join(dir, "base"), Result: filepath.Join(dir, "result.json"), Runs: runs, Workers: 2,
		Names: append(slices.Clone(commandWords), "git", "grep", "rg", "jq", "python3", "make", "curl", "wget", "tar", "mkfifo")}
	if err := os.Mkdir(job.Base, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(job)
	jobPath := filepath.Join(dir, "job.json")
	if err := os.WriteFile(jobPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = []string{sandboxEnv + "=" + jobPath, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS}
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("the oracle's namespaces are not permitted here: %v", err)
	}
	if err != nil {
		t.Fatalf("the sandbox failed: %v\n%s", err, out)
	}
	data, err = os.ReadFile(job.Result)
	if err != nil {
		t.Fatal(err)
	}
	var results []oracleResult
	if err := json.Unmarshal(data, &results); err != nil {
		t.Fatal(err)
	}
	return results
}

// sandbox runs a job, oracleDir its namespaces.
func sandbox(jobPath string) error {
	data, err := os.ReadFile(jobPath)
	if err != nil {
		return err
	}
	var job oracleJob
	if err := json.Unmarshal(data, &job); err != nil {
		return err
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	if err := syscall.Mount("tmpfs", job.Base, "tmpfs", 0, "size=1g,mode=755"); err != nil {
		return fmt.Errorf("mounting the sandbox: %w", err)
	}
	layer := filepath.Join(job.Base, "layer")
	if err := recorderLayer(layer, job.Recorder, job.Names); err != nil {
		return err
	}
	results := make([]oracleResult, len(job.Runs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := range max(job.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = runOne(job.Base, layer, fmt.Sprint(w), job.Runs[i])
			}
		}()
	}
	for i := range job.Runs {
		next <- i
	}
	close(next)
	wg.Wait()
	out, _ := json.Marshal(results)
	return os.WriteFile(job.Result, out, 0o644)
}

// recorderLayer makes the overlay's middle layer: a recorder for every
// program on the system's path and every name given, and the shells and
// the recorder itself in /.bn-oracle.
func recorderLayer(layer, recorder string, names []string) error {
	tools := filepath.Join(layer, oracleDir)
	if err := os.MkdirAll(tools, 0o755); err != nil {
		return err
	}
	copyFile := func(from, to string) error {
		from, err := filepath.EvalSymlinks(from)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o755)
	}
	for from, to := range map[string]string{recorder: "recorder", "/usr/bin/bash": "bash", "/usr/bin/zsh": "zsh"} {
		if err := copyFile(from, filepath.Join(tools, to)); err != nil {
			return err
		}
	}
	for _, d := range []string{"/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"} {
		entries, _ := os.ReadDir(d)
		all := slices.Clone(names)
		for _, e := range entries {
			all = append(all, e.Name())
		}
		if err := os.MkdirAll(filepath.Join(layer, d), 0o755); err != nil {
			return err
		}
		for _, n := range all {
			if strings.ContainsAny(n, "/") || n == "." || n == ".." {
				continue
			}
			err := os.Symlink(oracleDir+"/recorder", filepath.Join(layer, d, n))
			if err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		}
	}
	return nil
}

// runOne runs one line in a fresh overlay.
func runOne(base, layer, worker string, r oracleRun) (res oracleResult) {
	res.ID = r.ID
	dir := filepath.Join(base, "run"+worker)
	upper, work, root := filepath.Join(dir, "upper"), filepath.Join(dir, "work"), filepath.Join(dir, "root")
	for _, d := range []string{upper, work, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			res.Err = err.Error()
			return res
		}
	}
	defer os.RemoveAll(dir)
	if err := syscall.Mount("overlay", root, "overlay", 0, "lowerdir="+layer+":/,upperdir="+upper+",workdir="+work); err != nil {
		res.Err = "overlay: " + err.Error()
		return res
	}
	defer syscall.Unmount(root, syscall.MNT_DETACH)
	if err := makeDevices(filepath.Join(root, "dev")); err != nil {
		res.Err = err.Error()
		return res
	}
	defer syscall.Unmount(filepath.Join(root, "dev"), syscall.MNT_DETACH)
	if err := syscall.Mount("proc", filepath.Join(root, "proc"), "proc", syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		res.Err = "proc: " + err.Error()
		return res
	}
	defer syscall.Unmount(filepath.Join(root, "proc"), syscall.MNT_DETACH)
	tools := filepath.Join(root, oracleDir)
	os.WriteFile(filepath.Join(tools, "exit"), []byte(strconv.Itoa(r.Exit)), 0o644)
	os.WriteFile(filepath.Join(tools, "line"), []byte(r.Line), 0o644)
	os.WriteFile(filepath.Join(tools, "script"), []byte(script(r)), 0o644)
	trace, err := os.Create(filepath.Join(tools, "trace"))
	if err != nil {
		res.Err = err.Error()
		return res
	}
	cmd := exec.Command(oracleDir+"/"+r.Shell, oracleDir+"/script")
	cmd.Dir = r.Dir
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + r.Home, "LANG=C", "TERM=dumb"}
	cmd.Stdout = io.Discard
	if r.Shell == "zsh" {
		cmd.Stderr = trace // zsh traces to the shell's standard error as it started
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Setpgid: true}
	if err := cmd.Start(); err != nil {
		trace.Close()
		res.Err = "start: " + err.Error()
		return res
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		res.Timeout = true
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-done
	trace.Close()
	res.Execs = readExecs(filepath.Join(upper, oracleDir, "rec.log"))
	res.Trace = readTrace(filepath.Join(tools, "trace"))
	res.Files = changes(upper, filepath.Join(root, "dev"))
	return res
}

// script is what the shell runs: tracing on, then the line, as a line of
// the script or through eval (as Claude Code runs lines).
func script(r oracleRun) string {
	var b strings.Builder
	b.WriteString("PS4='+BNX '\n")
	if r.Shell == "bash" {
		b.WriteString("exec 199>>" + oracleDir + "/trace\nBASH_XTRACEFD=199\nshopt -s expand_aliases\n")
	}
	b.WriteString("echo '{\"start\":true}' >> " + oracleDir + "/rec.log\n")
	if r.Eval {
		b.WriteString("L=$(<" + oracleDir + "/line)\n")
	}
	if r.Shell == "bash" {
		b.WriteString("set -x\n")
	} else {
		b.WriteString("setopt xtrace\n")
	}
	if r.Eval {
		b.WriteString("eval \"$L\"\n")
	} else {
		b.WriteString(r.Line + "\n")
	}
	return b.String()
}

// makeDevices makes /dev a small tmpfs: the devices a line may use, and
// nothing of the host's to write to.
func makeDevices(dev string) error {
	if err := syscall.Mount("tmpfs", dev, "tmpfs", 0, "size=16m,mode=755"); err != nil {
		return fmt.Errorf("dev: %w", err)
	}
	for name, n := range map[string][2]uint32{"null": {1, 3}, "zero": {1, 5}, "random": {1, 8}, "urandom": {1, 9}, "tty": {5, 0}} {
		if err := syscall.Mknod(filepath.Join(dev, name), syscall.S_IFCHR|0o666, int((n[0]<<8)|n[1])); err != nil {
			return fmt.Errorf("mknod %s: %w", name, err)
		}
	}
	for name, to := range map[string]string{"stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "fd": "/proc/self/fd"} {
		if err := os.Symlink(to, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	return nil
}

func readExecs(path string) []oracleExec {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []oracleExec
	started := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if sc.Text() == `{"start":true}` {
			started = true
			continue
		}
		var e oracleExec
		if started && json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

func readTrace(path string) []string {
	data, _ := os.ReadFile(path)
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		for _, part := range strings.Split(l, "+BNX ")[1:] {
			out = append(out, strings.TrimSpace(part))
		}
	}
	return out
}

// changes lists what the line wrote: the files of the overlay's upper
// directory (deletions are whiteouts there) but bn's own, and anything
// made in /dev.
func changes(upper, dev string) []oracleFile {
	var out []oracleFile
	filepath.WalkDir(upper, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(upper, p)
		path := "/" + filepath.ToSlash(rel)
		if path == oracleDir {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := oracleFile{Path: path}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && info.Mode()&fs.ModeCharDevice != 0 && st.Rdev == 0 {
			f.Deleted = true
		} else if _, err := os.Lstat(path); err != nil {
			f.New = true
		}
		out = append(out, f)
		return nil
	})
	filepath.WalkDir(dev, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Type()&fs.ModeSymlink == 0 && d.Type()&fs.ModeCharDevice == 0 {
			out = append(out, oracleFile{Path: "/dev/" + strings.TrimPrefix(p, dev+"/"), New: true})
		}
		return nil
	})
	return out
}
