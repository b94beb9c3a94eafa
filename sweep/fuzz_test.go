package sweep

import (
	"os"
	"testing"
)

// FuzzParse: no sweep file makes Parse panic or hang, and a sweep it accepts expands:
// its first and last runs render into model text.
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 20s ./sweep/
func FuzzParse(f *testing.F) {
	model, err := os.ReadFile(pendulum)
	if err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(example)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("model: m.yaml\ndesign: latin-hypercube\nruns: 5\nparameters:\n  - {path: forces.spring1.k, range: [1, 2], scale: log}\n"))
	f.Add([]byte("model: m.yaml\ndesign: list\nparameters:\n  - {path: 'markers.bar1.O.point[0]', values: [0.1, -0.5]}\n  - {path: gravity[1], values: [-9, -1]}\n"))
	f.Add([]byte("model: m.yaml\nparameters:\n  - {path: simulation.h, values: [\"1e-3\"]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("sweep.yaml", data, model)
		if err != nil {
			return
		}
		d, err := s.design()
		if err != nil {
			t.Fatalf("Parse accepted a sweep whose design fails: %v", err)
		}
		for _, i := range []int{0, d.n - 1} {
			if len(s.render(d.values(i))) == 0 {
				t.Fatalf("run %d renders to nothing", i)
			}
		}
	})
}
