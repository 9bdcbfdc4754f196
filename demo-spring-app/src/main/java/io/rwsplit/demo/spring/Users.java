package io.rwsplit.demo.spring;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

import io.rwsplit.ReadReplica;

public interface Users extends JpaRepository<AppUser, Long> {

    /** A report that tolerates a little staleness: explicitly a replica read, with a bound on its lag. */
    @ReadReplica(consistency = "bounded_staleness:PT5S")
    @Query("select count(u) from AppUser u")
    long countForReport();
}
