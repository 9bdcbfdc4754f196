package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

    @Test
    void readsHostsPortsAndDatabase() {
        assertEquals(new JdbcUrls.Target(List.of("db1:3306", "db2:3307"), "shop"),
                JdbcUrls.target("jdbc:mysql://user@db1,DB2:3307/shop?sslMode=DISABLED"));
        assertEquals(new JdbcUrls.Target(List.of("127.0.0.1:5432"), "app"), JdbcUrls.target("jdbc:postgresql://localhost/app"));
        assertEquals(new JdbcUrls.Target(List.of(), "jdbc:h2:mem:primary"), JdbcUrls.target("jdbc:h2:mem:primary;DB_CLOSE_DELAY=-1"));
    }

    @Test
    void theSameServerAndDatabaseIsTheSameTargetWhateverTheSpelling() {
        assertTrue(JdbcUrls.sameTarget("jdbc:mariadb://localhost/rwsplit", "jdbc:mariadb://127.0.0.1:3306/rwsplit?x=1"));
        assertTrue(JdbcUrls.sameTarget("jdbc:h2:mem:p;MODE=MySQL", "jdbc:h2:mem:p"));
        assertFalse(JdbcUrls.sameTarget("jdbc:mariadb://127.0.0.1:3307/rwsplit", "jdbc:mariadb://127.0.0.1:3308/rwsplit"));
        assertFalse(JdbcUrls.sameTarget("jdbc:mariadb://h/a", "jdbc:mariadb://h/b"));
    }

    @Test
    void malformedUrlsAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JdbcUrls.target("jdbc:mariadb://h:33o6/db"))
                .getMessage().contains("33o6"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JdbcUrls.target("jdbc:mariadb://h:70000/db"))
                .getMessage().contains("70000"));
        assertThrows(IllegalArgumentException.class, () -> JdbcUrls.target("mariadb://h/db"));
    }

    @Test
    void formsItCannotReadAreNotCompared() {
        assertNull(JdbcUrls.target("jdbc:mysql://address=(host=h)(port=3306)/db"));
        assertFalse(JdbcUrls.sameTarget("jdbc:mysql://address=(host=h)(port=3306)/db", "jdbc:mysql://h/db"));
    }
}
