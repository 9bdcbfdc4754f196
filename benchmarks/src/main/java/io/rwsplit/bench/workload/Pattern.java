package io.rwsplit.bench.workload;

/**
 * What each user of the workload repeats ({@code --pattern}), each operation in a new {@code EntityManager}:
 * <ul>
 *   <li>{@code mix} (the default): a random mix, {@link WorkloadRunner#WRITE_PERCENT}% writes of the user's own
 *       row, the other operations reads of the own row or of a random row, half each;</li>
 *   <li>{@code write-readback-N}: write the own row, read it back (a read-after-write), then read {@code N}
 *       random other rows; {@code write-readback} is {@code write-readback-9} and {@code pairs} is
 *       {@code write-readback-0} (write, read back).</li>
 * </ul>
 *
 * @param otherReads the random reads after each read-back, or -1 for the mix
 */
record Pattern(int otherReads) {

    static final Pattern MIX = new Pattern(-1);

    /** Random reads after each read-back when {@code write-readback} names no number. */
    static final int DEFAULT_OTHER_READS = 9;

    private static final String WRITE_READBACK = "write-readback";

    /** Parses the {@code --pattern} value; rejects anything else by naming the option and the value. */
    static Pattern parse(String text) {
        String value = text.trim();
        if (value.equals("mix")) {
            return MIX;
        }
        if (value.equals("pairs")) {
            return new Pattern(0);
        }
        if (value.equals(WRITE_READBACK)) {
            return new Pattern(DEFAULT_OTHER_READS);
        }
        if (value.startsWith(WRITE_READBACK + "-")) {
            try {
                int n = Integer.parseInt(value.substring(WRITE_READBACK.length() + 1));
                if (n >= 0) {
                    return new Pattern(n);
                }
            }
            catch (NumberFormatException e) {
                // rejected below
            }
        }
        throw new IllegalArgumentException("--pattern must be mix, pairs, write-readback or write-readback-N (N >= 0): " + text);
    }

    boolean mix() {
        return otherReads < 0;
    }

    /** The pattern's name as {@link #parse} accepts it. */
    String describe() {
        return mix() ? "mix" : WRITE_READBACK + "-" + otherReads;
    }
}
