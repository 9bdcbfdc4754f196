package io.rwsplit.demo.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot sample: {@code java -jar demo-spring-app.jar} runs on H2 with simulated replication (replicas
 * 500 ms behind); {@code --cluster} (the {@code cluster} profile, {@code --cluster-port=N} for a cluster not on 3307) on the replicated MariaDB cluster of
 * {@code scripts/cluster.sh}. Then {@code curl} the JSON API (see docs/spring.md).
 */
@SpringBootApplication
public class DemoSpringApp {

    public static void main(String[] args) {
        List<String> rest = new ArrayList<>();
        boolean cluster = false;
        String env = System.getenv("RWSPLIT_CLUSTER_BASE_PORT");
        int port = env != null ? Integer.parseInt(env) : 3307;
        for (String arg : args) {
            if (arg.equals("--cluster")) {
                cluster = true;
            }
            else if (arg.startsWith("--cluster-port=")) {
                port = Integer.parseInt(arg.substring("--cluster-port=".length()));
            }
            else {
                rest.add(arg);
            }
        }
        SpringApplication app = new SpringApplication(DemoSpringApp.class);
        if (cluster) {
            app.setAdditionalProfiles("cluster");
            // as command-line arguments, so that they win over application.properties' embedded URLs
            clusterUrls(port).forEach((key, value) -> rest.add(0, "--" + key + "=" + value));
        }
        app.run(rest.toArray(String[]::new));
    }

    /** The primary on {@code port}, replica N on {@code port + N}, as scripts/cluster.sh lays them out. */
    static Map<String, Object> clusterUrls(int port) {
        Map<String, Object> urls = new LinkedHashMap<>();
        urls.put("spring.datasource.url", "jdbc:mariadb://127.0.0.1:" + port + "/rwsplit");
        for (int i = 1; i <= 2; i++) {
            urls.put("spring.rwsplit.replicas[" + (i - 1) + "].url", "jdbc:mariadb://127.0.0.1:" + (port + i) + "/rwsplit");
        }
        return urls;
    }
}
