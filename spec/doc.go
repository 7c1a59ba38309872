// Package spec turns text into runs: the specs of polytopes
// ("birkhoff:20", "mps:FILE"), objectives ("quadratic:seed=3") and online
// loss streams ("linear:rounds=100"), the registry of methods (offline and
// online, with their -params), and the configuration of a run. The CLI
// and the bench runner both go through it, so they accept exactly the same
// specs and settings.
//
// A run is configured by one Config. The table of Settings names each of
// its values once, with its CLI flag, its suite-file field and its
// deprecated spellings: Config.RegisterFlags binds the flags,
// Config.Set reads a key=value pair (the suite reader of the experiment
// package uses it), and the method-specific -params are read with the
// same spec reader (ParseParams) as the specs. Config.Prepare builds the
// instance, the objective or the loss stream, the separator
// (Config.NewSeparator: lazycg.NewSeparator from Config.SeparatorConfig,
// or augmentation) and the method; Prepared.Summary and
// Prepared.OnlineSummary turn a result into the Summary that "lazycg
// solve -json", "lazycg online -json" and the runner's records print.
//
// A new method is one file with its algorithm and one RegisterMethod call
// (MethodInfo: offline New or online NewOnline, laziness, baseline, doc).
package spec
