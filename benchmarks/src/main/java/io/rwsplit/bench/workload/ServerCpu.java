package io.rwsplit.bench.workload;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The CPU time spent by this JVM and by each server of a cluster on this machine, read from {@code /proc}: on a
 * machine whose cores the servers and the benchmark share, throughput is the cores over the CPU an operation costs,
 * and that cost, per process, moves far less between runs than the throughput does. A MariaDB server is one process
 * (found through {@code @@pid_file}); a PostgreSQL server is its postmaster and the postmaster's children (backends,
 * WAL sender and receiver, startup, checkpointer...; found as the parent of {@code pg_backend_pid()}): their CPU now,
 * plus what the postmaster reaped of children that ended. Linux only; elsewhere {@link #open} answers null.
 */
final class ServerCpu {

    /** CPU so far, in nanoseconds: this JVM's, and each server's in the order the URLs were given. */
    record Sample(long clientNanos, long[] serverNanos) {
    }

    private static final Path PROC = Path.of("/proc");

    /** Each server's root process: the MariaDB server, or the PostgreSQL postmaster. */
    private final long[] roots;
    private final long nanosPerTick;

    private ServerCpu(long[] roots, long nanosPerTick) {
        this.roots = roots;
        this.nanosPerTick = nanosPerTick;
    }

    /**
     * The servers behind {@code urls} (each asked once, over a connection of its own), or null when their CPU cannot be
     * read here: no {@code /proc}, a server on another machine (its process is not here), a database other than
     * MariaDB or PostgreSQL. Prints why when it cannot.
     */
    static ServerCpu open(List<String> urls, String user, String password, boolean mariadb) {
        if (!Files.isDirectory(PROC.resolve("self"))) {
            System.out.println("(no /proc: the servers' CPU is not measured)");
            return null;
        }
        long[] roots = new long[urls.size()];
        for (int i = 0; i < roots.length; i++) {
            String url = urls.get(i);
            try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
                long root = mariadb ? mariaDbPid(s) : parent(pgBackendPid(s));
                String command = root <= 0 ? "" : command(root);
                if (!(mariadb ? command.equals("mariadbd") || command.equals("mysqld") : command.equals("postgres"))) {
                    // another machine, or a container (its pids and files are not this machine's)
                    System.out.println("(the server at " + url + " is not a process of this machine ('" + command
                            + "'): CPU not measured)");
                    return null;
                }
                roots[i] = root;
            }
            catch (SQLException | IOException | RuntimeException e) {
                System.out.println("(cannot find the server process of " + url + ": " + e + "; CPU not measured)");
                return null;
            }
        }
        return new ServerCpu(roots, 1_000_000_000L / clockTicksPerSecond());
    }

    /** CPU so far of this JVM and of each server. */
    Sample sample() {
        long client = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long[] ticks = new long[roots.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = ownAndReaped(roots[i]);
        }
        // the children of every root in one pass over /proc
        try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC)) {
            for (Path p : all) {
                String name = p.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                long[] f = fields(Long.parseLong(name));
                if (f == null) {
                    continue;   // it ended meanwhile
                }
                for (int i = 0; i < ticks.length; i++) {
                    if (f[PPID] == roots[i]) {
                        ticks[i] += f[UTIME] + f[STIME];
                    }
                }
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        long[] nanos = new long[ticks.length];
        for (int i = 0; i < ticks.length; i++) {
            nanos[i] = ticks[i] * nanosPerTick;
        }
        return new Sample(client, nanos);
    }

    /** The root's own CPU and what it reaped of ended children, in clock ticks. */
    private static long ownAndReaped(long pid) {
        long[] f = fields(pid);
        if (f == null) {
            throw new IllegalStateException("server process " + pid + " is gone");
        }
        return f[UTIME] + f[STIME] + f[CUTIME] + f[CSTIME];
    }

    // indexes into fields(): /proc/<pid>/stat's fields after the command name, from its 4th (ppid) on
    private static final int PPID = 0;
    private static final int UTIME = 10;
    private static final int STIME = 11;
    private static final int CUTIME = 12;
    private static final int CSTIME = 13;

    /** {@code /proc/<pid>/stat}'s numeric fields from ppid (the 4th) to cstime (the 17th); null when it is gone. */
    private static long[] fields(long pid) {
        String text;
        try {
            text = Files.readString(stat(pid), StandardCharsets.US_ASCII);
        }
        catch (IOException gone) {
            return null;
        }
        // the command name is in parentheses and may hold spaces: the fields start after the last ')'
        String[] rest = text.substring(text.lastIndexOf(')') + 2).split(" ");
        long[] f = new long[14];
        for (int i = 0; i < f.length; i++) {
            f[i] = Long.parseLong(rest[i + 1]);    // rest[0] is the state letter
        }
        return f;
    }

    /** {@code /proc/<pid>/comm}: the process's command name; empty when there is no such process. */
    private static String command(long pid) {
        try {
            return Files.readString(PROC.resolve(Long.toString(pid)).resolve("comm"), StandardCharsets.US_ASCII).trim();
        }
        catch (IOException gone) {
            return "";
        }
    }

    private static Path stat(long pid) {
        return PROC.resolve(Long.toString(pid)).resolve("stat");
    }

    private static long mariaDbPid(Statement s) throws SQLException, IOException {
        try (ResultSet rs = s.executeQuery("select @@pid_file")) {
            rs.next();
            return Long.parseLong(Files.readString(Path.of(rs.getString(1))).trim());
        }
    }

    private static long pgBackendPid(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("select pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long parent(long pid) {
        long[] f = fields(pid);
        return f == null ? -1 : f[PPID];
    }

    /** {@code getconf CLK_TCK}: the unit of /proc's CPU times (100 on Linux almost everywhere). */
    private static long clockTicksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor() == 0) {
                return Long.parseLong(out);
            }
        }
        catch (IOException | NumberFormatException e) {
            // fall through
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
