package io.rwsplit.internal.consistency;

import io.rwsplit.Consistency;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.ScopeResolver;

/**
 * The consistency state of one session: its level, its scope and what its reads must see (its own
 * writes, its scope's writes read once from the store, tokens it was asked to honour). Without a named
 * scope and with {@code consistency_scope=unit} (the default) the scope is the persistence unit: each
 * read also sees the unit's last committed position as it is when the read begins (one volatile read;
 * with a shared store, the store's unit position is read once per session, at its first read). Confined
 * to the session's thread.
 */
public final class SessionConsistency {

    private final CausalReads causal;
    private Consistency level;
    private String scope;
    private boolean scopeKnown;
    private boolean fetched;
    private boolean unknown;
    private ConsistencyToken scopeWrites;
    private ConsistencyToken required;
    private Runnable pendingWrite;
    /** A write this session's reads required that a failover lost, not yet reported to a read, or null. */
    private LostWrite lostWrite;
    /** The failover whose lost write this session's own requirement was last told of (0: none): told once. */
    private long toldOfFailover;
    /** The unit position last merged into {@link #required} (identity), so that an unchanged one costs nothing. */
    private ConsistencyToken unitSeen;

    SessionConsistency(CausalReads causal) {
        this.causal = causal;
        this.level = causal.defaultLevel();
    }

    /**
     * Made after the session's first read was decided without it ({@link CausalReads#firstReadWithoutState()}): the
     * state that read would have left here. It required {@code unit}, the unit's position then, and the gate found it
     * met by every replica from then on if {@code settled}.
     */
    public void afterFirstRead(ConsistencyToken unit, boolean settled) {
        fetched = true;
        scopeKnown = true;
        unitSeen = unit;
        required = settled ? null : unit;
    }

    public Consistency level() {
        return level;
    }

    /** Sets the level for the rest of the session; returns the previous one. */
    public Consistency level(Consistency level) {
        Consistency previous = this.level;
        this.level = java.util.Objects.requireNonNull(level, "level");
        return previous;
    }

    /** Names the scope ({@code null}: the session itself); its writes are then read again from the store. */
    public void scope(String key) {
        this.scope = key;
        this.scopeKnown = true;
        this.fetched = false;
        this.unknown = false;
    }

    /** The scope key, resolved once (lazily) through the resolver unless set; {@code null} for the session itself. */
    public String scope() {
        if (!scopeKnown) {
            scopeKnown = true;
            if (causal.runtime().config().scopeResolver() != null) {
                scope = causal.runtime().config().scopeResolver().resolveScope();
            }
        }
        return scope;
    }

    /** What reads must see now, or {@code null}; see {@link #stateUnknown()}. */
    public ConsistencyToken requirement() {
        if (!fetched) {
            fetch();
        }
        ConsistencyToken before = required;
        ConsistencyToken unitRead = null;
        if (unitWide()) {
            ConsistencyToken unit = causal.unitPosition();
            if (unit != unitSeen) {
                unitSeen = unit;
                unitRead = unit;
            }
        }
        ConsistencyToken base = causal.failoverBase();   // after the tokens it re-bases
        ConsistencyToken kept = CausalReads.rebased(before, base);
        required = unitRead == null ? kept : Tokens.merge(kept, CausalReads.rebased(unitRead, base));
        // what the re-base replaced is asked after it: a failover publishes its loss before its re-base, so a re-base
        // seen above is a loss seen here (asked before, a failover landing in between would pass in silence)
        noteLost(before, null);
        noteLost(unitRead, null);
        return required;
    }

    /**
     * What this session's reads had to see when last asked ({@link #requirement}), with its scope's writes since, for
     * the stale-read audit: no store read, no side effect; {@code null} when nothing is required.
     */
    public ConsistencyToken lastRequirement() {
        return Tokens.merge(required, scopeWrites);
    }

    /** Whether this session's reads honour the whole unit's writes (no named scope, {@code consistency_scope=unit}). */
    public boolean unitWide() {
        return causal.unitWide() && scope() == null;
    }

    /** The reasons this session's READ_YOUR_WRITES reads report: the unit's, or a named scope's. */
    public CausalReasons reasons() {
        return unitWide() ? CausalReasons.UNIT : CausalReasons.SCOPE;
    }

    /** Whether the scope's state could not be read from the store (then reads use the primary). */
    public boolean stateUnknown() {
        return unknown;
    }

    /** The requirement {@code need} is met by every replica from now on (its time window passed). */
    public void settled(ConsistencyToken need) {
        if (required == need) {
            required = null;
        }
    }

    /** A write of this session committed. */
    public void committed(ConsistencyToken write) {
        ConsistencyToken base = causal.failoverBase();   // after the tokens it re-bases
        ConsistencyToken written = CausalReads.rebased(write, base);
        scopeWrites = Tokens.merge(CausalReads.rebased(scopeWrites, base), written);
        ConsistencyToken before = required;
        required = Tokens.merge(CausalReads.rebased(before, base), written);
        noteLost(before, null);   // a write its reads required that a failover lost: the next read is still told
        // re-based: one of the old primary's numbering would stay in the unit's position (or the scope's) for good
        String key = scope();
        if (key != null) {
            causal.record(key, written);
        }
        causal.unitCommitted(written, write);
        ScopeResolver resolver = causal.runtime().config().scopeResolver();
        if (resolver != null) {
            resolver.committed(write);
        }
    }

    /** An autocommit write ran on {@code record}'s connection and is recorded when {@code record} runs ({@code null}: none). */
    public void pendingWrite(Runnable record) {
        this.pendingWrite = record;
    }

    /** The scope's last committed write as far as this session knows, or {@code null}. */
    public ConsistencyToken lastWrite() {
        if (pendingWrite != null) {
            pendingWrite.run();
        }
        if (!fetched) {
            fetch();
        }
        ConsistencyToken unit = unitWide() ? causal.unitPosition() : null;
        ConsistencyToken base = causal.failoverBase();   // after the tokens it re-bases
        return Tokens.merge(CausalReads.rebased(scopeWrites, base), CausalReads.rebased(unit, base));
    }

    /** Remembers for the next read a write {@code need} requires that a failover lost ({@link CausalReads#lostWrite}). */
    private void noteLost(ConsistencyToken need, String who) {
        LostWrite lost = causal.lostWrite(need, who);
        if (lost == null) {
            return;
        }
        if (who == null) {
            // once a failover: a requirement asked as it landed may see its loss before its re-base and again after,
            // in one token or in two it merged since (a scope or a token is told once by LostWrites itself)
            if (lost.failover() == toldOfFailover) {
                return;
            }
            toldOfFailover = lost.failover();
        }
        lostWrite = lost;
    }

    /** Whether a lost write waits to be reported to this session's next read ({@link #takeLostWrite()}). */
    public boolean lostWritePending() {
        return lostWrite != null;
    }

    /**
     * A write a failover lost that this session's next read required (its own, its scope's, a token's): the read
     * fails with it, once; null when there is none. Clears it.
     */
    public LostWrite takeLostWrite() {
        LostWrite l = lostWrite;
        lostWrite = null;
        return l;
    }

    /** The signed token of this scope's last committed write as far as this session knows, or null. */
    public String token() {
        ConsistencyToken last = lastWrite();
        return last == null ? null : causal.tokens().sign(last);
    }

    /**
     * Reads of this session must also see the write the token text {@code token} stands for ({@link TokenTrust}: one
     * it cannot trust sends them to the primary).
     *
     * @throws IllegalArgumentException naming the token when it is no token at all
     */
    public void requireToken(String token) {
        require(causal.tokens().read(token));
    }

    /** Reads of this session must also see {@code token}. */
    public void require(ConsistencyToken token) {
        ConsistencyToken base = causal.failoverBase();   // after the tokens it re-bases
        required = Tokens.merge(CausalReads.rebased(required, base), CausalReads.rebased(token, base));
        noteLost(token, "token");   // after the re-base, as in requirement()
    }

    private void fetch() {
        fetched = true;
        ConsistencyToken prior = required;
        ScopeResolver resolver = causal.runtime().config().scopeResolver();
        ConsistencyToken resolved = resolver != null ? resolver.resolveRequirement() : null;
        String key = scope();
        ConsistencyToken raw = null;
        if (key != null || unitWide()) {
            try {
                raw = key != null ? causal.read(key) : causal.readSharedUnitPosition();
                unknown = false;
            }
            catch (RuntimeException e) {
                unknown = true;
            }
        }
        ConsistencyToken base = causal.failoverBase();   // after the tokens it re-bases
        ConsistencyToken stored = CausalReads.rebased(raw, base);
        scopeWrites = Tokens.merge(CausalReads.rebased(scopeWrites, base), stored);
        required = Tokens.merge(Tokens.merge(CausalReads.rebased(prior, base), CausalReads.rebased(resolved, base)),
                stored);
        // what the re-base replaced is asked after it, as in requirement()
        noteLost(prior, null);
        // a token the resolver hands every request of a client (a cookie) is told once, as a token handed in is: not
        // at the first read of each request until a write rewrites it
        noteLost(resolved, "token");
        if (key != null) {
            // a named scope that recorded a lost write learns it once; the unit's position in a shared store is not
            // asked: a session that begins after the failover reads the new primary's data
            noteLost(raw, "scope " + key);
        }
    }
}
