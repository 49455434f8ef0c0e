package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
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
	testwait.Until(t, "the jobs "+job+" and "+merge+" to end", time.Second,
		func() bool { return sh("squeue -h -o %i") == "" }, func() string { return sh("squeue") })
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
