package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"linkage/modelfile"
)

// errHelp reports that -h was given and the help text printed.
var errHelp = errors.New("help requested")

// newFlagSet returns a flag set that prints its usage to w and returns errors instead of
// exiting.
func newFlagSet(name, synopsis string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: linkage %s\n\nflags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments (linkage solve
// andrews --tol 1e-8), and returns the positional arguments.
//
// A lone "-h" asks for help in every command, as "-help" and "--help" do; the fixed step
// size of run and solve is "--h" (or "--step"), which Go's flag package would otherwise
// read the same as "-h".
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	args = append([]string(nil), args...)
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" {
			args[i] = "-help"
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usagef("%v", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseTols parses "1e-3:1e-9" (one value per decade, both ends included), "1e-3:1e-9:2"
// (two values per decade) or a comma list "1e-4,1e-6".
func parseTols(s string) ([]float64, error) {
	if strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		if len(parts) < 2 || len(parts) > 3 {
			return nil, usagef("--tols %q: want FROM:TO[:PER_DECADE]", s)
		}
		from, err1 := strconv.ParseFloat(parts[0], 64)
		to, err2 := strconv.ParseFloat(parts[1], 64)
		per := 1.0
		var err3 error
		if len(parts) == 3 {
			per, err3 = strconv.ParseFloat(parts[2], 64)
		}
		if err1 != nil || err2 != nil || err3 != nil || !(from > 0) || !(to > 0) || !(per >= 1) {
			return nil, usagef("--tols %q: want positive FROM:TO and PER_DECADE >= 1", s)
		}
		lo, hi := math.Log10(from), math.Log10(to)
		n := int(math.Round(math.Abs(hi-lo)*per)) + 1
		out := make([]float64, n)
		for i := range out {
			x := lo
			if n > 1 {
				x = lo + (hi-lo)*float64(i)/float64(n-1)
			}
			out[i] = math.Pow(10, x)
		}
		out[0], out[n-1] = from, to // exactly as given: 10^log10(0.1) is 0.10000000000000002
		return out, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(x > 0) {
			return nil, usagef("--tols: %q is not a positive number", p)
		}
		out = append(out, x)
	}
	return out, nil
}

// methodOptions is a repeatable --method-option NAME=VALUE flag: the method's parameters
// (integrate.Param), checked against the method once it is known.
type methodOptions map[string]float64

func (o methodOptions) String() string { return strings.TrimPrefix(modelfile.OptionsText(o), ", ") }

// Set parses one NAME=VALUE; a later one for the same name wins.
func (o methodOptions) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE (e.g. alpha=-0.05), got %q", s)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
	if err != nil {
		return fmt.Errorf("%s: value %q is not a number", name, val)
	}
	o[strings.TrimSpace(name)] = v
	return nil
}
