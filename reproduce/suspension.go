package reproduce

// SuspensionResult is the suspension comparison of seed 001 (see SuspensionComparison).
type SuspensionResult struct{}

// SuspensionComparison is not built yet.
func SuspensionComparison() (*SuspensionResult, error) { return &SuspensionResult{}, nil }

// Table prints the comparison.
func (s *SuspensionResult) Table() string { return "" }
