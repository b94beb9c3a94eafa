package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"linkage/modelfile"
)

// TestImportURDF: `linkage import` writes the model file of a URDF to stdout or to -o,
// refuses to replace an existing -o file without -force, and warns on stderr about what
// it does not simulate; `linkage run` and `check` take the URDF file directly.
func TestImportURDF(t *testing.T) {
	const urdf = "../../examples/robot-arm.urdf"
	code, out, errOut := runCLI("import", urdf)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	if _, err := modelfile.Parse("stdout.yaml", []byte(out)); err != nil {
		t.Errorf("import's output does not parse: %v", err)
	}
	if !strings.Contains(errOut, "not simulated (ignored): visual (") || !strings.Contains(errOut, "limit (shoulder, elbow)") {
		t.Errorf("stderr does not list what was ignored: %q", errOut)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "arm.yaml")
	if code, _, errOut := runCLI("import", urdf, "-o", path); code != 0 {
		t.Fatalf("import -o: exit %d: %s", code, errOut)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != out {
		t.Errorf("-o wrote %d bytes (%v), want the %d of stdout", len(got), err, len(out))
	}
	if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI("import", urdf, "-o", path)
	if kept, _ := os.ReadFile(path); code != 2 || !strings.Contains(errOut, "exists; add -force") || string(kept) != "mine" {
		t.Errorf("import -o over an existing file: exit %d, %q, file %q; want 2, a message naming -force, the file kept", code, errOut, kept)
	}
	if code, _, errOut := runCLI("import", urdf, "-o", path, "-force"); code != 0 {
		t.Errorf("import -o -force: exit %d: %s", code, errOut)
	} else if got, _ := os.ReadFile(path); string(got) != out {
		t.Errorf("-force did not replace the file")
	}
	if code, out, errOut := runCLI("check", urdf); code != 0 || !strings.Contains(out, "dof         4") {
		t.Errorf("check FILE.urdf: exit %d, want 0 and 4 degrees of freedom:\n%s%s", code, out, errOut)
	}
	csv := filepath.Join(dir, "arm.csv")
	if code, out, errOut := runCLI("run", urdf, "--t-end", "0.2", "--out", csv); code != 0 {
		t.Errorf("run FILE.urdf: exit %d:\n%s%s", code, out, errOut)
	} else if b, err := os.ReadFile(csv); err != nil || !strings.HasPrefix(string(b), "t,turret.x") {
		t.Errorf("run FILE.urdf --out: %v, %.40q", err, b)
	}
	if code, _, errOut := runCLI("import", "../../examples/slider-crank.yaml"); code != 2 || !strings.Contains(errOut, "want a URDF file") {
		t.Errorf("import MODEL.yaml: exit %d, %q; want 2 and a message", code, errOut)
	}
	// -floating-base: the root "world" with its base (4 kg) fixed to it floats.
	if code, out, errOut := runCLI("import", urdf, "-floating-base"); code != 0 || !strings.Contains(out, `# Floating base: root link "world" (body world)`) ||
		!strings.Contains(out, "{name: world, mass: 4,") {
		t.Errorf("import -floating-base: exit %d, %s; want the root link world (and its base) a body of 4 kg:\n%s", code, errOut, out)
	}
	bad := filepath.Join(dir, "bad.urdf")
	if err := os.WriteFile(bad, []byte("<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n</robot>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("import", bad); code != 1 || !strings.Contains(errOut, "bad.urdf:3:1: link[b]: 2 root links") {
		t.Errorf("import of a bad URDF: exit %d, %q; want 1 and the element with its line", code, errOut)
	}
}
