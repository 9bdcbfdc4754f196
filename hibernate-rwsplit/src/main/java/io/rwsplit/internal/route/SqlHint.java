package io.rwsplit.internal.route;

/** The route asked for by a {@code rwsplit:} comment in front of a statement, see {@link SqlClassifier#hint}. */
public enum SqlHint {
    /** No {@code rwsplit:} comment: the router decides. */
    NONE,
    /** {@code /* rwsplit:primary *}{@code /}: run on the primary. */
    PRIMARY,
    /** {@code /* rwsplit:replica *}{@code /}: a replica may serve it. */
    REPLICA
}
