// Package outdir is the one writer of output folders: every file a
// command of the explorer writes goes through it, and a test over the
// source (internal/rules) fails on os.Create, os.WriteFile, os.OpenFile
// for writing, os.Mkdir*, os.Rename, os.Remove* and their kind anywhere
// else. The rule it keeps: a run's files appear together, whole, or not
// at all, and nothing it did not write is lost.
//
//   - A folder holding files the writer did not write is refused unless
//     Force is set, naming them; Force writes beside them. The writer
//     tells its own files from a user's by its manifest, .pdn-out/manifest.json,
//     which records each file it put in place with its SHA-256, its part
//     and the run (command, pid, host, start) that wrote it. A file of the
//     manifest changed since counts as the user's.
//   - A run writes its files under .pdn-out/runs/ID and Commit puts them
//     in place together, each by a rename, with SIGINT and SIGTERM held off
//     and a journal: a commit cut short by SIGKILL or a power cut is
//     finished by the next Open of the folder. A run interrupted before
//     Commit (a signal, an error, a full disk) leaves the earlier files as
//     they were, and says so.
//   - A run's files come in parts ("structure", "scenario4", one shard's
//     file): a part's files replace that part's earlier files whole, so the
//     folder never holds a mix of two runs of it. A run locks the parts it
//     writes (flock, which the kernel releases if the process dies): a
//     second run of the same part fails at once, naming the first; runs
//     of other parts share the folder, as the shards of one job do when
//     many machines write into one folder.
//   - A part may be the folder's alone (Options.Exclusive: a graph
//     bundle, which a reader opens as the whole folder): a run of another
//     part is refused where the folder holds it, and it is refused where
//     the folder holds another part's files, naming them and what wrote
//     them (without Force). Other parts share a folder as before.
//   - A run never writes into or around a folder an input comes from
//     (Options.Inputs): its files would land among those it reads.
//
// Build outputs (the site under dist/, caches, test fixtures) are a
// Tree: a folder the build owns whole, each file written under a
// temporary name and renamed into place when whole, neither locked nor
// checked for others' files.
package outdir
