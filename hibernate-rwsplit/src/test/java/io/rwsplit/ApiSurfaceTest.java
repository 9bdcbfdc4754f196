package io.rwsplit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The drawn API line: the exported packages ({@code io.rwsplit}, {@code spi}, {@code position}, {@code metrics},
 * {@code health}) hold exactly the public types listed here, and nothing they show (a public or protected member's
 * types, a supertype) is an {@code io.rwsplit.internal} type. Everything else lives under {@code io.rwsplit.internal},
 * which the project's own modules may use and applications should not: it changes in any release. Adding or removing
 * an exported type fails this test until the list (and docs/migrating.md, when a type moves) says so.
 */
class ApiSurfaceTest {

    static final Set<String> EXPORTED_PACKAGES = Set.of("io.rwsplit", "io.rwsplit.spi", "io.rwsplit.position",
            "io.rwsplit.metrics", "io.rwsplit.health", "io.rwsplit.web");

    private static final Set<String> EXPORTED_TYPES = Set.of(
            "io.rwsplit.ConfigurationException", "io.rwsplit.Consistency", "io.rwsplit.Durations", "io.rwsplit.Intent",
            "io.rwsplit.InvalidSettingException", "io.rwsplit.LostWriteException", "io.rwsplit.ReadConsistency", "io.rwsplit.ReadReplica",
            "io.rwsplit.QueryShapeStatistics", "io.rwsplit.RouteDecision", "io.rwsplit.RouteReason", "io.rwsplit.RoutingStatistics", "io.rwsplit.RwSplit",
            "io.rwsplit.RwSplitSettings", "io.rwsplit.Target", "io.rwsplit.UsePrimary",
            "io.rwsplit.spi.Clock", "io.rwsplit.spi.ConsistencyStore", "io.rwsplit.spi.LagProbe",
            "io.rwsplit.spi.LagSample", "io.rwsplit.spi.LoadBalancer", "io.rwsplit.spi.ReplicaView",
            "io.rwsplit.spi.RoutingIntentSource", "io.rwsplit.spi.ScopeResolver", "io.rwsplit.spi.TransactionStatus",
            "io.rwsplit.position.ConsistencyToken", "io.rwsplit.position.GtidPosition", "io.rwsplit.position.LsnPosition",
            "io.rwsplit.position.MariaDbGtidPosition", "io.rwsplit.position.MySqlGtidSet", "io.rwsplit.position.Tokens",
            "io.rwsplit.metrics.RwSplitMetrics",
            "io.rwsplit.health.ReplicaHealth", "io.rwsplit.health.ReplicaState", "io.rwsplit.health.ReplicaStatus",
            "io.rwsplit.web.ConsistencyCookie", "io.rwsplit.web.Signing");

    private static final Path ROOT = Path.of("src/main/java");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public (?:(?:final|abstract|sealed|non-sealed) )*(?:class|interface|enum|record|@interface) (\\w+)",
            Pattern.MULTILINE);

    @Test
    void theExportedPackagesHoldExactlyTheListedPublicTypes() {
        assertEquals(new TreeSet<>(EXPORTED_TYPES), exportedTypes(),
                "public types of the exported packages: update EXPORTED_TYPES (and docs/migrating.md when a type moved)");
    }

    @Test
    void noExportedSignatureShowsAnInternalType() throws ClassNotFoundException {
        List<String> leaks = new ArrayList<>();
        for (String name : EXPORTED_TYPES) {
            Class<?> type = Class.forName(name);
            for (Class<?> nested : nestedTypes(type)) {
                check(nested, nested.getName() + " extends", nested.getGenericSuperclass(), leaks);
                for (Type i : nested.getGenericInterfaces()) {
                    check(nested, nested.getName() + " implements", i, leaks);
                }
                for (Method m : nested.getDeclaredMethods()) {
                    if (shown(m.getModifiers()) && !m.isSynthetic()) {
                        checkExecutable(nested, m, leaks);
                        check(nested, m.toString(), m.getGenericReturnType(), leaks);
                    }
                }
                for (Constructor<?> k : nested.getDeclaredConstructors()) {
                    if (shown(k.getModifiers()) && !k.isSynthetic()) {
                        checkExecutable(nested, k, leaks);
                    }
                }
                for (Field f : nested.getDeclaredFields()) {
                    if (shown(f.getModifiers()) && !f.isSynthetic()) {
                        check(nested, f.toString(), f.getGenericType(), leaks);
                    }
                }
            }
        }
        assertEquals(List.of(), leaks, "internal types in the exported API");
    }

    /** Only the facade may reach the implementation; the other exported types stand on their own. */
    @Test
    void onlyTheFacadeImportsTheImplementation() {
        List<String> found = new ArrayList<>();
        for (Path file : exportedSources()) {
            if (file.getFileName().toString().equals("RwSplit.java")) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(file)) {
                    String code = line.strip();
                    if (!code.startsWith("*") && !code.startsWith("//") && code.contains("io.rwsplit.internal.")) {
                        found.add(ROOT.relativize(file) + ": " + code);
                    }
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertEquals(List.of(), found);
    }

    private static boolean shown(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** The type and its public or protected nested types, at any depth. */
    private static List<Class<?>> nestedTypes(Class<?> type) {
        List<Class<?>> all = new ArrayList<>(List.of(type));
        for (Class<?> nested : type.getDeclaredClasses()) {
            if (shown(nested.getModifiers())) {
                all.addAll(nestedTypes(nested));
            }
        }
        return all;
    }

    private static void checkExecutable(Class<?> owner, Executable e, List<String> leaks) {
        for (Type p : e.getGenericParameterTypes()) {
            check(owner, e.toString(), p, leaks);
        }
        for (Type x : e.getGenericExceptionTypes()) {
            check(owner, e.toString(), x, leaks);
        }
    }

    private static void check(Class<?> owner, String where, Type type, List<String> leaks) {
        if (type == null) {
            return; // an interface's superclass
        }
        for (Class<?> c : classesIn(type, new TreeSet<>())) {
            if (c.getName().startsWith("io.rwsplit.internal.")) {
                leaks.add(where + " shows " + c.getName());
            }
        }
    }

    private static List<Class<?>> classesIn(Type type, Set<String> seenVariables) {
        List<Class<?>> found = new ArrayList<>();
        if (type instanceof Class<?> c) {
            found.add(c.isArray() ? c.getComponentType() : c);
        }
        else if (type instanceof ParameterizedType p) {
            found.addAll(classesIn(p.getRawType(), seenVariables));
            for (Type a : p.getActualTypeArguments()) {
                found.addAll(classesIn(a, seenVariables));
            }
        }
        else if (type instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                found.addAll(classesIn(b, seenVariables));
            }
            for (Type b : w.getLowerBounds()) {
                found.addAll(classesIn(b, seenVariables));
            }
        }
        else if (type instanceof GenericArrayType g) {
            found.addAll(classesIn(g.getGenericComponentType(), seenVariables));
        }
        else if (type instanceof TypeVariable<?> v && seenVariables.add(v.getName())) {
            for (Type b : v.getBounds()) {
                found.addAll(classesIn(b, seenVariables));
            }
        }
        return found;
    }

    private static Set<String> exportedTypes() {
        Set<String> types = new TreeSet<>();
        for (Path file : exportedSources()) {
            String pkg = ROOT.relativize(file.getParent()).toString().replace('\\', '/').replace('/', '.');
            try {
                Matcher m = PUBLIC_TYPE.matcher(Files.readString(file));
                if (m.find()) {
                    types.add(pkg + "." + m.group(1));
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return types;
    }

    private static List<Path> exportedSources() {
        List<Path> files = new ArrayList<>();
        for (String pkg : EXPORTED_PACKAGES) {
            Path dir = ROOT.resolve(pkg.replace('.', '/'));
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }
}
