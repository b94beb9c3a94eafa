//go:build unix

// Package cputime reads the CPU time of the process, the steadier measure of a run's cost
// on a machine shared with other jobs.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user + system, all threads) the process has used so
// far, or 0 where the platform does not report it.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
