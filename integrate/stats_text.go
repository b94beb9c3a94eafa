package integrate

import (
	"fmt"
	"strings"
)

// FailureSummary lists the attempts that failed before their error test, by cause
// (Stats.NewtonFailures, Singular, NonFinite), e.g. "3 Newton failures, 1 singular
// matrix"; "" when there were none. Error-test rejections (Rejected) are not listed.
func (s Stats) FailureSummary() string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(s.NewtonFailures, "Newton failure", "Newton failures")
	add(s.Singular, "singular matrix", "singular matrices")
	add(s.NonFinite, "NaN/Inf attempt", "NaN/Inf attempts")
	return strings.Join(parts, ", ")
}
