// Package examples holds the example model files (*.yaml, written for users to read and
// run); IFToMM embeds those of examples/iftomm so that `linkage reproduce iftomm` runs the
// files users see, from any directory.
package examples

import "embed"

// IFToMM holds examples/iftomm/*.yaml, the IFToMM benchmark problems as model files.
//
//go:embed iftomm/*.yaml
var IFToMM embed.FS
