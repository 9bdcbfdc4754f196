package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SecretsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "jdbc:mariadb://db:3306/app?user=app&password=s3cret&useSsl=true | jdbc:mariadb://db:3306/app?user=app&password=****&useSsl=true",
            "jdbc:postgresql://db/app?sslpassword=k3y&password=s3cret | jdbc:postgresql://db/app?sslpassword=****&password=****",
            "jdbc:mysql://app:s3cret@db:3306/app | jdbc:mysql://app:****@db:3306/app",
            "redis://:s3cret@cache:6379/0 | redis://:****@cache:6379/0",
            "jdbc:h2:mem:r1;USER=sa;PASSWORD=s3cret;MODE=MySQL | jdbc:h2:mem:r1;USER=sa;PASSWORD=****;MODE=MySQL",
            "jdbc:sqlserver://db;databaseName=app;pwd=s3cret | jdbc:sqlserver://db;databaseName=app;pwd=****",
            "jdbc:mysql://address=(host=db)(password=s3cret)/app | jdbc:mysql://address=(host=db)(password=****)/app",
            "r1=jdbc:mariadb://a/app?password=one,r2=jdbc:mariadb://b/app?password=two | r1=jdbc:mariadb://a/app?password=****,r2=jdbc:mariadb://b/app?password=****",
            "invalid value 'jdbc:x://h/d?Password=s3cret' for setting | invalid value 'jdbc:x://h/d?Password=****' for setting",
            "jdbc:aws-wrapper:postgresql://h/d?secretId=abc&accessKey=AK1&token=t0k | jdbc:aws-wrapper:postgresql://h/d?secretId=****&accessKey=****&token=****",
            "jdbc:mariadb://db:3306/app?user=pwdadmin | jdbc:mariadb://db:3306/app?user=pwdadmin",
            "Access denied for user 'app'@'10.0.0.1' (using password: YES) | Access denied for user 'app'@'10.0.0.1' (using password: YES)"})
    void masksTheValuesOfSecretOptionsAndKeepsEverythingElse(String text, String shown) {
        assertEquals(shown, Secrets.scrub(text));
        assertFalse(Secrets.scrub(text).contains("s3cret"));
    }

    @Test
    void nullAndEmptyStayAsTheyAre() {
        assertNull(Secrets.scrub(null));
        assertEquals("", Secrets.scrub(""));
    }

    @Test
    void aSettingNamedLikeASecretIsMaskedWhole() {
        assertTrue(Secrets.isSecretName("hibernate.rwsplit.tenant.t1.password"));
        assertTrue(Secrets.isSecretName("dataSource.password"));
        assertFalse(Secrets.isSecretName("hibernate.rwsplit.replicas"));
        assertEquals(Secrets.MASK, Secrets.shown("hibernate.rwsplit.tenant.t1.password", "s3cret"));
        assertEquals("r1=jdbc:mariadb://a/app?password=****",
                Secrets.shown("hibernate.rwsplit.replicas", "r1=jdbc:mariadb://a/app?password=s3cret"));
    }

    @Test
    void propertiesAreShownWithSecretsMasked() {
        Properties p = new Properties();
        p.setProperty("maximumPoolSize", "4");
        p.setProperty("dataSource.password", "s3cret");
        p.setProperty("dataSource.url", "jdbc:mariadb://a/app?password=s3cret");
        assertEquals(Map.of("maximumPoolSize", "4", "dataSource.password", Secrets.MASK,
                "dataSource.url", "jdbc:mariadb://a/app?password=****"), Secrets.shown(p));
    }

    @Test
    void aThrowableIsDescribedWithItsMessageScrubbed() {
        assertEquals("IllegalStateException: cannot reach jdbc:mariadb://a/app?password=****",
                Secrets.describe(new IllegalStateException("cannot reach jdbc:mariadb://a/app?password=s3cret")));
        assertEquals("unknown", Secrets.describe(null));
    }
}
