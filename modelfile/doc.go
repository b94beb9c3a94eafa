// Package modelfile reads planar mechanisms from model files in YAML or JSON (one format,
// described for users in docs/model-format.md, with the JSON Schema returned by Schema),
// builds them with package planar and simulates them.
//
// The pipeline, one stage per file:
//
//	urdf.go      URDF robot description (XML) ⇒ model file text (3D, joint coordinates;
//	             links joined by fixed joints merged), which Parse then reads as any file
//	repeat.go    syntax tree ⇒ syntax tree: parameters evaluated, repeat blocks copied per
//	             value of their variable, ${EXPR} replaced (before decoding, so the model
//	             is checked as if written out in full; a copy keeps its template's lines)
//	decode.go    bytes ⇒ Document: the YAML syntax tree (goccy/go-yaml; JSON is YAML flow
//	             style) decoded into the pure-data types of model.go, strictly: unknown or
//	             duplicate keys, wrong types, NaN/Inf and missing keys are errors
//	validate.go  Document ⇒ errors: names and references (unknown, duplicate, a joint
//	             connecting a body to itself), ranges (mass, inertia > 0), per-type keys
//	expr.go      "0.1*sin(2*pi*t)" ⇒ Expr with exact f, f', f” (second-order jets)
//	build.go     Document ⇒ planar.System (build3d.go: spatial.System; build_natural.go:
//	             natural.System for coordinates: natural) and a consistent start (dae.Initialize, coordinate
//	             partitioning of seed 002 Remark 2b; redundant rows dropped by dae.Reduce)
//	run.go       Built ⇒ Result: integrate.Solve with dense output at the output step, the
//	             channels (coordinates, velocities, accelerations, reactions, energies,
//	             constraint residuals) and the energy invariant of seed 001, eq. 12,
//
//	               Π(t) = T + V − W_nc − W_driving,   W = ∫₀ᵗ P dτ,
//	               P_nc = vᵀ f_nc,   P_driving = Σ_motions λ_r g_t,r,
//
//	             the powers split by planar/spatial (energy.go) and integrated over
//	             every accepted step by assembly.WorkMeter (work.go).
//
// Every problem found in a file is an *Error naming the file, the line and column, the path
// inside the document ("joints[2].i"), in a repeated copy its repeat variables ("in repeat
// i=37"), and what was expected; Parse returns them all (up to 20) as an ErrorList. Units are SI; angles are radians unless written as a string ending
// in "deg".
package modelfile
