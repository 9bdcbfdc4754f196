package io.rwsplit.spring.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A small Spring Boot + Spring Data JPA application the module's tests start with real HTTP and databases. */
@SpringBootApplication
public class TestApp {
}
