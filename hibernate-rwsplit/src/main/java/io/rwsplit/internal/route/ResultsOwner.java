package io.rwsplit.internal.route;

import java.sql.ResultSet;

/**
 * A routed statement told when one of the result sets it handed out is closed ({@code RoutedResultSet#close}): the
 * stale-read audit of a sampled read runs once the read's results are closed ({@link ReadAudit.Sample}).
 */
interface ResultsOwner {

    /** {@code results}, the driver's result set behind one this statement handed out, was closed. */
    void resultsClosed(ResultSet results);
}
