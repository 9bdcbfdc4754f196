package io.rwsplit.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code scripts/cluster.sh} (or {@code scripts/pg-cluster.sh}) commands and turns failures into exceptions
 * carrying its output.
 */
final class ClusterScript {

    private static final long TIMEOUT_SECONDS = 180;

    private final Path repoRoot;
    private final String relativePath;

    ClusterScript(Path repoRoot, String relativePath) {
        this.repoRoot = repoRoot;
        this.relativePath = relativePath;
    }

    /** Walks up from {@code start} to the first directory holding {@code relativePath}. */
    static ClusterScript locate(Path start, String relativePath) {
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relativePath))) {
                return new ClusterScript(dir, relativePath);
            }
        }
        throw new IllegalStateException("cannot find " + relativePath + " in " + start.toAbsolutePath()
                + " or any parent directory");
    }

    /** Runs a command and returns its output; fails if it exits non-zero. */
    String run(String... args) {
        Result result = exec(args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(describe(args) + " failed with exit code " + result.exitCode()
                    + ":\n" + result.output());
        }
        return result.output();
    }

    /** Runs a command and returns its exit code and output, whatever the exit code. */
    Result exec(String... args) {
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(repoRoot.resolve(relativePath).toString());
        command.addAll(List.of(args));
        Path output = null;
        try {
            output = Files.createTempFile("cluster-sh", ".log");
            Process process = new ProcessBuilder(command)
                    .directory(repoRoot.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            boolean finished = process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!finished) {
                process.destroyForcibly();
                throw new IllegalStateException(describe(args) + " did not finish within " + TIMEOUT_SECONDS
                        + "s:\n" + Files.readString(output));
            }
            return new Result(process.exitValue(), Files.readString(output).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + describe(args), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + describe(args), e);
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }

    private String describe(String... args) {
        return relativePath + " " + String.join(" ", args);
    }

    record Result(int exitCode, String output) {
    }
}
