package io.rwsplit.internal.hibernate;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.dialect.Dialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.query.named.NamedObjectRepository;
import org.hibernate.query.sql.spi.NamedNativeQueryMemento;
import org.hibernate.query.sqm.spi.NamedSqmQueryMemento;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.InvalidSettingException;
import io.rwsplit.internal.config.ShapeRule;
import io.rwsplit.internal.route.Router;

/**
 * Resolves the rules by named query ({@code hibernate.rwsplit.rule.NAME.match=query:<name>}) when the session factory
 * has been built and knows its named queries. With {@code hibernate.use_sql_comments}, Hibernate opens the SQL of a
 * query made from a named query with a comment: the named query's own ({@code org.hibernate.comment}) or else its
 * HQL. Each such rule becomes a rule by source that matches that comment, so it is still decided once per distinct
 * SQL string. A rule naming no named query of the unit, or one whose SQL carries no comment that tells it apart,
 * fails the factory's start, naming the rule's key and value.
 */
final class NamedQueryRules implements SessionFactoryObserver {

    private static final Logger log = LoggerFactory.getLogger(NamedQueryRules.class);

    /** The HQL text Hibernate gives a criteria query, and so the comment every criteria query writes. */
    private static final String CRITERIA = "<criteria>";

    private static final String EXPECTED = "query:<the name of a named query of the persistence unit>";

    @Override
    public void sessionFactoryCreated(SessionFactory factory) {
        SessionFactoryImplementor sessionFactory = factory.unwrap(SessionFactoryImplementor.class);
        for (Router router : FactoryRouters.of(sessionFactory)) {
            List<ShapeRule> rules = router.configuredRules();
            if (rules.stream().anyMatch(r -> r.match() == ShapeRule.Match.QUERY)) {
                router.useRules(resolve(rules, sessionFactory));
            }
        }
    }

    /** {@code rules} with every rule by named query replaced by the rule by source its query's SQL opens with. */
    static List<ShapeRule> resolve(List<ShapeRule> rules, SessionFactoryImplementor factory) {
        List<ShapeRule> resolved = new ArrayList<>(rules.size());
        for (ShapeRule rule : rules) {
            resolved.add(rule.match() == ShapeRule.Match.QUERY ? rule.asSource(source(rule, factory)) : rule);
        }
        return List.copyOf(resolved);
    }

    /** The comment (as {@code SqlFingerprint} reads it) that opens the SQL of the named query {@code rule} names. */
    private static String source(ShapeRule rule, SessionFactoryImplementor factory) {
        String name = rule.pattern();
        NamedObjectRepository named = factory.getQueryEngine().getNamedObjectRepository();
        NamedSqmQueryMemento<?> hql = named.getSqmQueryMemento(name);
        NamedNativeQueryMemento<?> sql = hql == null ? named.getNativeQueryMemento(name) : null;
        if (hql == null && sql == null) {
            if (named.getCallableQueryMemento(name) != null) {
                throw refused(rule, "'" + name + "' is a named stored procedure call, which always runs on the primary");
            }
            throw refused(rule, "the persistence unit has no named query '" + name + "' (its named queries: "
                    + names(named) + ")");
        }
        if (!factory.getSessionFactoryOptions().isCommentsEnabled()) {
            throw refused(rule, "a rule by named query needs 'hibernate.use_sql_comments=true': only then does"
                    + " Hibernate open the query's SQL with the comment that tells it apart");
        }
        String comment;
        if (hql != null) {
            comment = hql.getComment() != null ? hql.getComment() : hql.getHqlString();
            if (hql.getComment() == null && CRITERIA.equals(comment)) {
                throw refused(rule, "'" + name + "' is a criteria query, whose SQL opens with the comment every criteria"
                        + " query writes ('" + CRITERIA + "'): give it a comment of its own (the hint"
                        + " org.hibernate.comment)");
            }
        }
        else {
            comment = sql.getComment();
            if (comment == null) {
                throw refused(rule, "'" + name + "' is a native query without a comment, so its SQL carries none: give"
                        + " it one (the hint org.hibernate.comment)");
            }
        }
        String source = Dialect.escapeComment(comment).trim();
        if (source.isEmpty()) {
            throw refused(rule, "the comment of '" + name + "' is blank");
        }
        warnIfShared(rule, name, source, named);
        log.debug("hibernate-rwsplit: rule '{}' matches the statements that open with the comment of named query '{}':"
                + " /* {} */", rule.name(), name, source);
        return source;
    }

    /** Other named queries whose SQL opens with the same comment (the same HQL, no comment of their own) match too. */
    private static void warnIfShared(ShapeRule rule, String name, String source, NamedObjectRepository named) {
        TreeSet<String> others = new TreeSet<>();
        named.visitSqmQueryMementos(m -> {
            String c = m.getComment() != null ? m.getComment() : m.getHqlString();
            if (!m.getRegistrationName().equals(name) && c != null && Dialect.escapeComment(c).trim().equals(source)) {
                others.add(m.getRegistrationName());
            }
        });
        named.visitNativeQueryMementos(m -> {
            String c = m.getComment();
            if (!m.getRegistrationName().equals(name) && c != null && Dialect.escapeComment(c).trim().equals(source)) {
                others.add(m.getRegistrationName());
            }
        });
        if (!others.isEmpty()) {
            log.warn("hibernate-rwsplit: rule '{}' ({}=query:{}) also matches the named queries {}: their SQL opens with"
                    + " the same comment; give '{}' a comment of its own (the hint org.hibernate.comment) to tell it"
                    + " apart", rule.name(), rule.matchKey(), name, others, name);
        }
    }

    private static String names(NamedObjectRepository named) {
        TreeSet<String> names = new TreeSet<>();
        named.visitSqmQueryMementos(m -> names.add(m.getRegistrationName()));
        named.visitNativeQueryMementos(m -> names.add(m.getRegistrationName()));
        if (names.isEmpty()) {
            return "none";
        }
        List<String> shown = names.stream().limit(20).toList();
        return String.join(", ", shown) + (names.size() > shown.size() ? ", ... " + names.size() + " in all" : "");
    }

    private static InvalidSettingException refused(ShapeRule rule, String why) {
        String value = "query:" + rule.pattern();
        return new InvalidSettingException(rule.matchKey(), value, "hibernate-rwsplit: invalid value '" + value
                + "' for setting '" + rule.matchKey() + "': " + why, EXPECTED);
    }
}
