package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pdnexplorer/internal/testwait"
)

// The batch path for real: a one-node SLURM (Debian's slurm-wlm and munge,
// which .ci/run installs) runs deploy/slurm-sweep.sh for a small sweep as
// the README tells a user to (the job array, then the merge as a job that
// waits for it), and the merged files are byte for byte those one machine
// writes. It needs root, to start the daemons; it is skipped, saying why,
// where it cannot have them.
func TestSlurmSweepMergesAsOneMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a SLURM cluster of one node")
	}
	for _, bin := range []string{"slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "munged", "munge"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("no %s: apt-get install slurm-wlm munge (as .ci/run does) to run the SLURM test", bin)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("the SLURM daemons need root to start")
	}
	root := t.TempDir()
	env := slurmCluster(t, root)

	work := filepath.Join(root, "work")
	pdn := filepath.Join(work, "bin", "pdn")
	build := exec.Command("go", "build", "-o", pdn, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build pdn: %v\n%s", err, out)
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "deploy", "slurm-sweep.sh"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(work, "deploy"), 0o755)
	os.WriteFile(filepath.Join(work, "deploy", "slurm-sweep.sh"), script, 0o755)

	args := "-reps 1 -epochs 2 -models gcn,mlp"
	sh := func(cmd string) string {
		c := exec.Command("sh", "-c", cmd)
		c.Dir, c.Env = work, append(env, "PDN_ARGS="+args)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The README's two lines (the task's memory lowered to the node's).
	job := sh("sbatch --parsable --mem=1G deploy/slurm-sweep.sh")
	merge := sh(`sbatch --parsable --dependency=afterok:` + job + ` --wrap "bin/pdn merge -out figure3 shards"`)
	// A task that fails leaves the merge pending for ever
	// (DependencyNeverSatisfied): the test ends there, with what the
	// tasks printed.
	failed := func() bool { return strings.Contains(sh("squeue -h -o %r"), "DependencyNeverSatisfied") }
	testwait.Until(t, "the jobs "+job+" and "+merge+" to end", time.Second,
		func() bool { return failed() || sh("squeue -h -o %i") == "" }, func() string { return sh("squeue") + jobOutputs(work) })
	if failed() {
		t.Fatalf("a task of job %s failed, and the merge %s never runs:%s", job, merge, jobOutputs(work))
	}
	if shards, _ := filepath.Glob(filepath.Join(work, "shards", "*.shard-*-of-4.json")); len(shards) != 32 {
		t.Fatalf("%d shard files, want 32 (8 scenarios × 4 shards)", len(shards))
	}
	whole := filepath.Join(root, "whole")
	for k := 1; k <= 8; k++ {
		a := append([]string{"sweep", "-scenario", fmt.Sprint(k), "-out", whole}, strings.Fields(args)...)
		if _, errOut, code := runCLI(t, a...); code != 0 {
			t.Fatalf("scenario %d on one machine: %s", k, errOut)
		}
		for _, ext := range []string{".csv", ".svg"} {
			name := fmt.Sprintf("scenario%d%s", k, ext)
			want, _ := os.ReadFile(filepath.Join(whole, name))
			got, err := os.ReadFile(filepath.Join(work, "figure3", name))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: the cluster's differs from one machine's (%v)", name, err)
			}
		}
	}
}

// jobOutputs is what the jobs run in work printed (their slurm-*.out
// files), for a failure's message.
func jobOutputs(work string) string {
	outs, _ := filepath.Glob(filepath.Join(work, "slurm-*.out"))
	var b strings.Builder
	for _, o := range outs {
		if text, err := os.ReadFile(o); err == nil && len(bytes.TrimSpace(text)) > 0 {
			fmt.Fprintf(&b, "\n%s:\n%s", filepath.Base(o), text)
		}
	}
	return b.String()
}

// slurmCluster starts munge (if it does not run) and a SLURM controller
// and node daemon configured in dir, stopped when the test ends; it
// returns the environment its commands need (SLURM_CONF).
func slurmCluster(t *testing.T, dir string) []string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for _, d := range []string{"state", "spool", "log"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	conf := filepath.Join(dir, "slurm.conf")
	// The node says 64 CPUs and 40 GB on 2 cores (config_overrides) so that
	// the array's 32 tasks of 2 CPUs and 1 GB run at once: each takes a
	// tenth of a second, and SLURM starts pending tasks only every 3 s,
	// which made 16 waves of two take 50 s.
	text := fmt.Sprintf(`ClusterName=pdntest
SlurmctldHost=%[1]s
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/log/ctld.log
SlurmdLogFile=%[2]s/log/d.log
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SlurmdParameters=config_overrides
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=%[1]s CPUs=64 RealMemory=40000 State=UNKNOWN
PartitionName=test Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, dir, freePort(t), freePort(t))
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	if exec.Command("sh", "-c", "munge -n | unmunge").Run() != nil {
		os.MkdirAll("/run/munge", 0o755)
		exec.Command("chown", "munge:munge", "/run/munge").Run()
		if out, err := exec.Command("munged", "--force").CombinedOutput(); err != nil {
			t.Skipf("munge does not start here: %v %s", err, out)
		}
		t.Cleanup(func() { // the munge daemon this test started goes with it
			if pid, err := os.ReadFile("/run/munge/munged.pid"); err == nil {
				exec.Command("kill", strings.TrimSpace(string(pid))).Run()
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	for _, d := range []string{"slurmctld", "slurmd"} {
		c := exec.CommandContext(ctx, d, "-D", "-f", conf)
		c.Env = env
		if err := c.Start(); err != nil {
			cancel()
			t.Fatalf("%s: %v", d, err)
		}
		t.Cleanup(func() { c.Wait() })
	}
	t.Cleanup(cancel)
	idle := func() bool {
		c := exec.Command("sinfo", "-h", "-o", "%t")
		c.Env = env
		out, _ := c.Output()
		return strings.Contains(string(out), "idle")
	}
	testwait.Until(t, "the node to come up", 500*time.Millisecond, idle, func() string {
		log, _ := os.ReadFile(filepath.Join(dir, "log", "ctld.log"))
		return string(log)
	})
	return env
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The job's size is 8 × SHARDS, or no task runs: deploy/slurm-sweep.sh
// with SHARDS=8 in the array of 32 it ships with (which ran scenarios 1-4
// only, and the merge wrote a Figure 3 of four) refuses in one line saying
// what to set; so does the Kubernetes job whose COMPLETIONS is not 8 ×
// SHARDS, or a pod whose index lies beyond. A job of the right size runs
// its shard. No cluster is needed: the scripts run as a task would, with
// the variables SLURM and Kubernetes set, and pdn replaced by echo.
func TestClusterJobsAreEightTimesShards(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "deploy", "slurm-sweep.sh"))
	if err != nil {
		t.Fatal(err)
	}
	slurm := func(env ...string) (string, int) {
		c := exec.Command("bash", "-c", string(script))
		c.Env = append(jobEnv(), append([]string{"PDN=echo"}, env...)...)
		return runScript(t, c)
	}
	for _, c := range []struct {
		env  []string
		code int
		want string
	}{
		{[]string{"SHARDS=8", "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=32", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=31"}, 2,
			"slurm-sweep.sh: the array has 32 tasks (0-31), but SHARDS=8 needs 8 × 8 = 64 (8 scenarios × 8 shards): submit with --array=0-63, or set SHARDS to the array's size / 8"},
		{[]string{"SHARDS=2", "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=31"}, 2, "the array has 32 tasks (0-31), but SHARDS=2 needs 8 × 2 = 16"},
		{[]string{"SHARDS=4", "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=32", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=32"}, 2, "submit with --array=0-31"},
		{[]string{"SHARDS=four", "SLURM_ARRAY_TASK_ID=5"}, 2, "slurm-sweep.sh: SHARDS=four is not a whole number above 0"},
		{[]string{"SLURM_ARRAY_TASK_ID=40"}, 2, "SHARDS=4 needs 8 × 4 = 32"},
		{[]string{"SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=32", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=31"}, 0, "sweep -scenario 2 -shard 2/4 -workers 2 -out shards"},
		{[]string{"SHARDS=8", "SLURM_ARRAY_TASK_ID=63", "SLURM_ARRAY_TASK_COUNT=64"}, 0, "sweep -scenario 8 -shard 8/8"},
	} {
		out, code := slurm(c.env...)
		if code != c.code || !strings.Contains(out, c.want) || c.code != 0 && strings.Count(strings.TrimSpace(out), "\n") > 0 {
			t.Errorf("slurm-sweep.sh %v: exit %d, %q; want %d and one line %q", c.env, code, out, c.code, c.want)
		}
	}

	k8s := k8sSweepScript(t)
	for _, c := range []struct {
		env  []string
		code int
		want string
	}{
		{[]string{"SHARDS=8", "COMPLETIONS=32", "JOB_COMPLETION_INDEX=3"}, 2,
			"k8s-sweep.yaml: completions is 32 (pod 3), but SHARDS=8 needs 8 × 8 = 64 (8 scenarios × 8 shards): set completions and COMPLETIONS to 64, or SHARDS to completions / 8"},
		{[]string{"SHARDS=4", "COMPLETIONS=32", "JOB_COMPLETION_INDEX=32"}, 2, "completions is 32 (pod 32)"},
		{[]string{"SHARDS=4", "COMPLETIONS=32", "JOB_COMPLETION_INDEX=5"}, 0, "sweep -scenario 2 -shard 2/4 -workers 2 -out /results/shards"},
	} {
		cmd := exec.Command("sh", "-c", k8s)
		cmd.Env = append(jobEnv(), c.env...)
		out, code := runScript(t, cmd)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("k8s-sweep.yaml's pod %v: exit %d, %q; want %d and %q", c.env, code, out, c.code, c.want)
		}
	}
}

// jobEnv is this process's environment without what a job's scheduler
// or its user sets for the scripts (a test run inside a SLURM job would
// hand its own array over).
func jobEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return strings.HasPrefix(k, "SLURM_") || slices.Contains([]string{"SHARDS", "COMPLETIONS", "JOB_COMPLETION_INDEX", "PDN", "PDN_ARGS", "OUT"}, k)
	})
}

// runScript runs c and gives its output and exit status.
func runScript(t *testing.T, c *exec.Cmd) (string, int) {
	t.Helper()
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// k8sSweepScript is the shell line deploy/k8s-sweep.yaml's pods run (its
// args, a folded block: lines joined by spaces), with /pdn as echo.
func k8sSweepScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "k8s-sweep.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "- >-" {
			continue
		}
		indent := len(lines[i+1]) - len(strings.TrimLeft(lines[i+1], " "))
		var block []string
		for _, m := range lines[i+1:] {
			if len(m)-len(strings.TrimLeft(m, " ")) < indent || strings.TrimSpace(m) == "" {
				break
			}
			block = append(block, strings.TrimSpace(m))
		}
		return strings.Replace(strings.Join(block, " "), "exec /pdn ", "exec echo ", 1)
	}
	t.Fatal("k8s-sweep.yaml holds no folded args block")
	return ""
}
