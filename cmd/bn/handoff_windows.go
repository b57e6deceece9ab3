//go:build windows

package main

import (
	"fmt"
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// startChild starts cmd in a job that kills it when the job's last handle
// closes: bn holds that handle until the child ends (release closes it),
// so a bn that is killed (or ends) takes the child with it instead of
// leaving it running.
func startChild(cmd *exec.Cmd) (release func(), err error) {
	job, err := startInJob(cmd)
	if err != nil {
		return nil, err
	}
	return func() { windows.CloseHandle(job) }, nil
}

// startInJob starts cmd in a new job object set to kill its processes when
// its last handle is closed, and returns that handle, which the caller
// keeps open for as long as the child should live.
func startInJob(cmd *exec.Cmd) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object for %s: %w", cmd.Path, err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("setting the job object for %s to kill on close: %w", cmd.Path, err)
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	// os/exec cannot start a process suspended (CREATE_SUSPENDED would
	// leave it without a resumed thread), so the child is put in the job
	// right after it starts: a process it starts in that moment is not in
	// the job. bn's children start none that early.
	if err := assignToJob(job, cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		windows.CloseHandle(job)
		return 0, fmt.Errorf("putting %s in its job object: %w", cmd.Path, err)
	}
	return job, nil
}

// assignToJob puts the process pid in job. The pid is the child's still:
// os/exec holds the child's handle until Wait, so the pid is not reused.
func assignToJob(job windows.Handle, pid int) error {
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(proc)
	return windows.AssignProcessToJobObject(job, proc)
}
