package io.rwsplit.quarkus;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * What {@code quarkus.rwsplit.*} asks of one routed persistence unit, validated against the application's units and
 * datasources: the unit, its datasource, its replicas by URL and by datasource name, and its settings. The one
 * place that decides which units are routed and checks the names the configuration gives.
 *
 * @param unit               the persistence unit's name ({@code <default>} for the default one)
 * @param dataSource         the name of the unit's datasource ({@code <default>} for the default one)
 * @param config             the unit's {@code quarkus.rwsplit} settings
 * @param urls               the replicas given as JDBC URLs, named {@code replica1}, {@code replica2}, ...
 * @param replicaDataSources the replicas given as named datasources, each named by its datasource
 */
record UnitPlan(String unit, String dataSource, RwSplitRuntimeConfig.PersistenceUnit config, List<String> urls,
                List<String> replicaDataSources) {

    /** The core's rule for replica names. */
    private static final Pattern REPLICA_NAME = Pattern.compile("[A-Za-z0-9_-]+");

    UnitPlan {
        urls = List.copyOf(urls);
        replicaDataSources = List.copyOf(replicaDataSources);
    }

    /** The replica names in order: {@code replica1}, ... for the URLs, then the datasources' names. */
    List<String> replicaNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            names.add(urlReplicaName(i));
        }
        names.addAll(replicaDataSources);
        return names;
    }

    static String urlReplicaName(int index) {
        return "replica" + (index + 1);
    }

    /**
     * The routed units: those whose configuration gives replicas.
     *
     * @param config      {@code quarkus.rwsplit.*}
     * @param units       every persistence unit of the application, by name, with the name of its datasource (absent
     *                    for a unit without one, such as a database-per-tenant unit)
     * @param dataSources every JDBC datasource of the application, by name, and whether it takes part in JTA
     *                    transactions
     * @throws ConfigurationException naming the key and the value: a key of a unit that does not exist, a replica
     *                                datasource that does not exist, takes part in JTA transactions or is the unit's
     *                                own, a replica name given twice
     */
    static List<UnitPlan> of(RwSplitRuntimeConfig config, Map<String, String> units, Map<String, Boolean> dataSources) {
        List<UnitPlan> plans = new ArrayList<>();
        for (Map.Entry<String, RwSplitRuntimeConfig.PersistenceUnit> entry : config.persistenceUnits().entrySet()) {
            String unit = entry.getKey();
            RwSplitRuntimeConfig.PersistenceUnit c = entry.getValue();
            if (!units.containsKey(unit)) {
                String key = key(unit, firstKeySet(c));
                throw new ConfigurationException(key + " configures the persistence unit '" + unit + "', which does"
                        + " not exist; the application's persistence units: " + new TreeSet<>(units.keySet()), Set.of(key));
            }
            List<String> urls = c.replicas().orElse(List.of()).stream().map(String::trim).filter(u -> !u.isEmpty()).toList();
            List<String> named = c.replicaDatasources().orElse(List.of()).stream().map(String::trim)
                    .filter(n -> !n.isEmpty()).toList();
            if (urls.isEmpty() && named.isEmpty()) {
                continue;
            }
            String dataSource = units.get(unit);
            if (dataSource == null) {
                String key = key(unit, urls.isEmpty() ? "replica-datasources" : "replicas");
                throw new ConfigurationException(key + ": the persistence unit '" + unit + "' has no datasource of its"
                        + " own (a database per tenant?): it cannot be routed", Set.of(key));
            }
            checkDataSources(unit, dataSource, urls.size(), named, dataSources);
            plans.add(new UnitPlan(unit, dataSource, c, urls, named));
        }
        return plans;
    }

    private static void checkDataSources(String unit, String dataSource, int urlCount, List<String> named,
                                         Map<String, Boolean> dataSources) {
        String key = key(unit, "replica-datasources");
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < urlCount; i++) {
            names.add(urlReplicaName(i));
        }
        for (String name : named) {
            String bad = null;
            if (!dataSources.containsKey(name)) {
                bad = "no datasource of that name is configured (quarkus.datasource.\"" + name + "\".*); the"
                        + " application's datasources: " + new TreeSet<>(dataSources.keySet());
            }
            else if (name.equals(dataSource)) {
                bad = "it is the persistence unit's own datasource, the primary";
            }
            else if (dataSources.get(name)) {
                bad = "its pool takes part in JTA transactions; a replica's must not (set quarkus.datasource.\"" + name
                        + "\".jdbc.transactions=disabled)";
            }
            else if (!REPLICA_NAME.matcher(name).matches()) {
                bad = "a replica's name is letters, digits, '_' and '-'";
            }
            else if (!names.add(name)) {
                bad = "the replica name '" + name + "' is given twice"
                        + (name.matches("replica[0-9]+") ? " (the URLs of quarkus.rwsplit replicas are named replica1, replica2, ...)" : "");
            }
            if (bad != null) {
                throw new ConfigurationException(key + "=" + String.join(",", named) + ": '" + name + "': " + bad,
                        Set.of(key));
            }
        }
    }

    /** {@code quarkus.rwsplit.PROPERTY} for the default unit, {@code quarkus.rwsplit."UNIT".PROPERTY} for the others. */
    static String key(String unit, String property) {
        return PersistenceUnitUtil.isDefaultPersistenceUnit(unit)
                ? "quarkus.rwsplit." + property
                : "quarkus.rwsplit.\"" + unit + "\"." + property;
    }

    /** A key the configuration of a unit sets, to name it. */
    private static String firstKeySet(RwSplitRuntimeConfig.PersistenceUnit c) {
        if (c.replicas().isPresent()) {
            return "replicas";
        }
        if (c.replicaDatasources().isPresent()) {
            return "replica-datasources";
        }
        if (c.loadBalancer().isPresent()) {
            return "load-balancer";
        }
        if (c.consistency().isPresent()) {
            return "consistency";
        }
        if (c.readYourWrites().isPresent()) {
            return "read-your-writes";
        }
        if (c.readYourWritesWindow().isPresent()) {
            return "read-your-writes-window";
        }
        if (c.lostWrites().isPresent()) {
            return "lost-writes";
        }
        if (c.maxLag().isPresent()) {
            return "max-lag";
        }
        if (c.probeInterval().isPresent()) {
            return "probe-interval";
        }
        if (c.probeTimeout().isPresent()) {
            return "probe-timeout";
        }
        if (c.failureThreshold().isPresent()) {
            return "failure-threshold";
        }
        if (c.lagProbe().isPresent()) {
            return "lag-probe";
        }
        if (c.queryShapes().isPresent()) {
            return "query-shapes";
        }
        if (c.timeSample().isPresent()) {
            return "time-sample";
        }
        if (c.auditSample().isPresent()) {
            return "audit-sample";
        }
        return "*";   // only keys of its own that the extension does not know (Quarkus warns of each)
    }
}
