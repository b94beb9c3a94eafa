//go:build !unix

package cputime

import "time"

// Process returns 0: this platform's CPU time is not read (see cputime_unix.go).
func Process() time.Duration { return 0 }
