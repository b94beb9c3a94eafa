// Package output turns solutions into things people read and plot: aligned text tables,
// CSV files with a header of named channels, and line plots (PNG, SVG, PDF by the file's
// extension) drawn with gonum/plot, including the work-precision diagrams of the
// integrator comparisons (scd against wall time).
package output
