"""A one-node SLURM cluster on localhost, for tests: munged, slurmctld and slurmd (Debian's
munge, slurmctld and slurmd packages) started as root with every file - key, sockets,
slurm.conf, state, spool, logs - in a temporary directory, on free ports, and stopped again
(only the daemons it started, by the pids they wrote). Clients find it through $SLURM_CONF,
which start() sets in os.environ so that smsweep, sbatch and squeue see it, and the jobs too."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time


class ClusterError(Exception):
    pass


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(what, cond, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.2)
    raise ClusterError("timed out after %d s waiting for %s" % (timeout, what))


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


class LocalCluster:
    def __init__(self):
        self.dir = None
        self.pids = {}
        self.old_conf = None

    def _log(self, name):
        try:
            with open(os.path.join(self.dir, "log", name)) as f:
                return f.read()[-3000:]
        except OSError:
            return "(no log)"

    def start(self):
        if os.geteuid() != 0:
            raise ClusterError("the SLURM test starts munged, slurmctld and slurmd itself and must run as root")
        for tool in ("mungekey", "munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"):
            if not shutil.which(tool):
                raise ClusterError("%s not found: install Debian's munge, slurmctld, slurmd and slurm-client "
                                   "(the Makefile's APT_PKGS has them)" % tool)
        self.dir = tempfile.mkdtemp(prefix="smsweep-slurm-")
        os.chmod(self.dir, 0o755)  # munged wants its socket's directories reachable by all
        d = self.dir
        for sub in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(d, sub))
        os.chmod(os.path.join(d, "munge"), 0o755)
        key, sock = os.path.join(d, "munge", "munge.key"), os.path.join(d, "munge", "munge.socket")
        subprocess.run(["mungekey", "-c", "-k", key], check=True, capture_output=True)
        subprocess.run(["munged", "-f", "--socket=" + sock, "--key-file=" + key,
                        "--log-file=" + os.path.join(d, "log", "munged.log"),
                        "--pid-file=" + os.path.join(d, "munge", "munged.pid"),
                        "--seed-file=" + os.path.join(d, "munge", "munged.seed")], check=True, capture_output=True)
        self._read_pid("munged", os.path.join(d, "munge", "munged.pid"))
        host = socket.gethostname().split(".")[0]
        with open("/proc/meminfo") as f:
            mem_mb = int(f.readline().split()[1]) // 1024
        conf = os.path.join(d, "slurm.conf")
        with open(conf, "w") as f:
            f.write("\n".join([
                "ClusterName=smsweeptest",
                "SlurmctldHost=%s(127.0.0.1)" % host,
                "SlurmctldPort=%d" % _free_port(),
                "SlurmdPort=%d" % _free_port(),
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "AuthInfo=socket=%s" % sock,
                "CredType=cred/munge",
                "StateSaveLocation=%s/state" % d,
                "SlurmdSpoolDir=%s/spool" % d,
                "SlurmctldPidFile=%s/slurmctld.pid" % d,
                "SlurmdPidFile=%s/slurmd.pid" % d,
                "SlurmctldLogFile=%s/log/slurmctld.log" % d,
                "SlurmdLogFile=%s/log/slurmd.log" % d,
                "ProctrackType=proctrack/linuxproc",  # no cgroups needed
                "TaskPlugin=task/none",
                "MpiDefault=none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",  # one task per core, so array tasks run side by side
                "SchedulerType=sched/builtin",
                "ReturnToService=2",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "JobCompType=jobcomp/none",
                "SwitchType=switch/none",
                "KillWait=5",
                "NodeName=%s NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d State=UNKNOWN" % (
                    host, os.cpu_count() or 1, mem_mb // 2),
                "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
            ]) + "\n")
        self.old_conf = os.environ.get("SLURM_CONF")
        os.environ["SLURM_CONF"] = conf
        try:
            subprocess.run(["slurmctld", "-f", conf], check=True, capture_output=True)
            self._read_pid("slurmctld", os.path.join(d, "slurmctld.pid"))
            subprocess.run(["slurmd", "-f", conf], check=True, capture_output=True)
            self._read_pid("slurmd", os.path.join(d, "slurmd.pid"))
            _wait("the node to be idle", lambda: subprocess.run(
                ["sinfo", "-h", "-o", "%T"], capture_output=True, text=True).stdout.strip() == "idle", 120)
        except (ClusterError, subprocess.CalledProcessError) as e:
            msg = "%s\nslurmctld.log:\n%s\nslurmd.log:\n%s" % (e, self._log("slurmctld.log"), self._log("slurmd.log"))
            self.stop()
            raise ClusterError(msg)
        return self

    def _read_pid(self, name, path):
        def have():
            try:
                with open(path) as f:
                    self.pids[name] = int(f.read().strip())
                return True
            except (OSError, ValueError):
                return False
        _wait("%s's pid file" % name, have, 120)

    def stop(self):
        if not self.dir:
            return
        if "slurmctld" in self.pids and _alive(self.pids["slurmctld"]):
            subprocess.run(["scancel", "--user=root"], capture_output=True)  # jobs of this cluster only
            try:
                _wait("the queue to drain", lambda: not subprocess.run(
                    ["squeue", "-h"], capture_output=True, text=True).stdout.strip(), 30)
            except ClusterError:
                pass
        for name in ("slurmd", "slurmctld", "munged"):
            pid = self.pids.get(name)
            if pid and _alive(pid):
                os.kill(pid, signal.SIGTERM)
                try:
                    _wait("%s to stop" % name, lambda: not _alive(pid), 20)
                except ClusterError:
                    os.kill(pid, signal.SIGKILL)
        if self.old_conf is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = self.old_conf
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None
        self.pids = {}

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
