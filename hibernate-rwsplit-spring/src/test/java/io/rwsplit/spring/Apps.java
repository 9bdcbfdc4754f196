package io.rwsplit.spring;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.rwsplit.spring.app.TestApp;

/** Starts the test application with properties, as a user's {@code main} would. */
final class Apps {

    private Apps() {
    }

    static ConfigurableApplicationContext start(boolean web, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("spring.jpa.open-in-view", "false");
        all.put("spring.main.banner-mode", "off");
        all.put("server.port", "0");
        all.put("spring.jmx.enabled", "false");
        all.putAll(properties);
        return new SpringApplicationBuilder(TestApp.class)
                .web(web ? WebApplicationType.SERVLET : WebApplicationType.NONE)
                .properties(all)
                .run();
    }

    /** The H2 primary and replica, replica {@code r1}, schema created by {@link H2Databases}. */
    static Map<String, Object> h2(H2Databases db) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("spring.datasource.url", db.primaryUrl);
        p.put("spring.datasource.username", "sa");
        p.put("spring.jpa.hibernate.ddl-auto", "none");
        p.put("spring.rwsplit.replicas[0].name", "r1");
        p.put("spring.rwsplit.replicas[0].url", db.replicaUrl);
        p.put("spring.rwsplit.health.lag-probe", "reachability");
        return p;
    }

    static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
