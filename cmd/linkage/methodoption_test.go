package main

import (
	"strings"
	"testing"
)

// TestRunMethodOption: --method-option sets hht's α, the summary shows it, and a value
// outside the range, a name the method lacks or a malformed pair is a usage error (2)
// naming the flag and what is allowed.
func TestRunMethodOption(t *testing.T) {
	const model = "../../examples/iftomm/a01-pendulum.yaml"
	code, out, errOut := runCLI("run", model, "--method", "hht", "--h", "0.01", "--t-end", "1", "--method-option", "alpha=-0.1")
	if code != 0 || !strings.Contains(out, "method   hht (index3, alpha -0.1), fixed h 0.01") {
		t.Errorf("status %d, stdout\n%s\nstderr %s; want 0 and alpha -0.1 in the method line", code, out, errOut)
	}
	for _, c := range []struct{ args, want []string }{
		{[]string{"--method", "hht", "--method-option", "alpha=0.2"}, []string{"--method-option", "alpha = 0.2 outside [-0.3333, 0]"}},
		{[]string{"--method-option", "rho_inf=0.5"}, []string{"--method-option", `method bdf has no parameter "rho_inf"; it takes none`}},
		{[]string{"--method", "hht", "--method-option", "alpha"}, []string{"-method-option", "want NAME=VALUE"}},
		{[]string{"--method", "hht", "--method-option", "alpha=x"}, []string{"-method-option", `value "x" is not a number`}},
	} {
		code, _, errOut := runCLI(append([]string{"run", model, "--t-end", "0.1"}, c.args...)...)
		if code != 2 {
			t.Errorf("%v: status %d, want 2", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
	}

	code, out, errOut = runCLI("solve", "pendulum", "--method", "genalpha", "--method-option", "rho_inf=0.5")
	if code != 0 || !strings.Contains(out, "method   genalpha (index3, rho_inf 0.5)") {
		t.Errorf("solve: status %d, stdout\n%s\nstderr %s; want 0 and rho_inf 0.5 in the method line", code, out, errOut)
	}
	code, _, errOut = runCLI("solve", "pendulum", "--method", "genalpha", "--method-option", "rho_inf=2")
	if code != 2 || !strings.Contains(errOut, "--method-option: integrate: method genalpha: rho_inf = 2 outside [0, 1]") {
		t.Errorf("solve rho_inf=2: status %d, stderr %q; want 2 and the range", code, errOut)
	}
}
