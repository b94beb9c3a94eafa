package main

import (
	"fmt"
	"io"

	"linkage/output"
	"linkage/reproduce"
)

// runYen1998Flex runs seed 003's flexible slider-crank with the DAE α-method (CM against
// index 2) and writes its table and plots.
func runYen1998Flex(outDir string, stdout io.Writer) error {
	res, err := reproduce.Yen1998Flex(reproduce.Yen1998FlexOptions{})
	if err != nil {
		return err
	}
	return writeYen1998Flex(outDir, stdout, res)
}

// writeYen1998Flex prints the table of res and plots Figs. 7-12 into outDir (the hook a
// yen1998 command running the DAE α-method calls with its own result).
func writeYen1998Flex(outDir string, stdout io.Writer, res *reproduce.Yen1998FlexResult) error {
	fmt.Fprint(stdout, res.Table())
	label := func(r reproduce.Yen1998FlexRun) string {
		return fmt.Sprintf("%s ρ=%g h=1/%.0f", r.Form, r.Rho, 1/r.H)
	}
	// The energies from the moment the torque stops, when they should stay constant: the
	// plots' scale then shows what the integration keeps or removes.
	energy := func(runs []reproduce.Yen1998FlexRun) []output.Series {
		var s []output.Series
		for _, r := range runs {
			k := 0
			for k < len(r.T) && r.T[k] < reproduce.Yen1998FlexTorqueOff-1e-12 {
				k++
			}
			s = append(s, output.Series{Name: label(r), X: r.T[k:], Y: r.Energy[k:]})
		}
		return s
	}
	type plot struct {
		file  string
		spec  output.PlotSpec
		lines []output.Series
	}
	var plots []plot
	if n := res.Nodal; len(n.T) > 0 {
		var nodes []output.Series
		for i, w := range n.Nodes {
			nodes = append(nodes, output.Series{Name: fmt.Sprintf("w%d", i+1), X: n.T, Y: w})
		}
		var phi []output.Series
		for _, r := range res.Phi2 {
			phi = append(phi, output.Series{Name: label(r), X: r.T, Y: r.Phi2})
		}
		plots = append(plots,
			plot{"yen1998-flex-nodal.png", output.PlotSpec{Title: "seed 003 Fig. 7: nodal deflections of the rod, " + label(n),
				XLabel: "t [s]", YLabel: "w [m]"}, nodes},
			plot{"yen1998-flex-phi2.png", output.PlotSpec{Title: "seed 003 Fig. 8: rod angle φ₂", XLabel: "t [s]", YLabel: "φ₂ [rad]"}, phi})
	}
	var mid []output.Series
	for _, r := range res.Midspan {
		mid = append(mid, output.Series{Name: label(r), X: r.T, Y: r.Nodes[reproduce.Yen1998FlexElements/2-1]})
	}
	plots = append(plots,
		plot{"yen1998-flex-midspan.png", output.PlotSpec{Title: "seed 003 Fig. 9: mid-span deflection", XLabel: "t [s]", YLabel: "w [m]"}, mid},
		plot{"yen1998-flex-energy-rho.png", output.PlotSpec{Title: "seed 003 Fig. 10: total energy by ρ, torque off", XLabel: "t [s]", YLabel: "T + V [J]"}, energy(res.EnergyRho)},
		plot{"yen1998-flex-energy-h.png", output.PlotSpec{Title: "seed 003 Fig. 11: total energy by h, torque off", XLabel: "t [s]", YLabel: "T + V [J]"}, energy(res.EnergySteps)},
		plot{"yen1998-flex-energy-forms.png", output.PlotSpec{Title: "seed 003 Fig. 12: total energy by formulation, torque off", XLabel: "t [s]", YLabel: "T + V [J]"}, energy(res.Compare[:])})
	for _, p := range plots {
		if err := writePlot(stdout, outDir, p.file, p.spec, p.lines); err != nil {
			return err
		}
	}
	return nil
}
