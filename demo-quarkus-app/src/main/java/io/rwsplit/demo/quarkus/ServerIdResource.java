package io.rwsplit.demo.quarkus;

import java.util.Arrays;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;

/**
 * Which server answered, as plain text: {@code @@server_id} of the read each endpoint makes (1 is the primary of
 * scripts/cluster.sh, 2 and 3 its replicas), and how the application routed so far ({@code /stats}).
 */
@Path("/")
@Produces(MediaType.TEXT_PLAIN)
public class ServerIdResource {

    @Inject
    ServerIds serverIds;

    @Inject
    EntityManagerFactory factory;

    /** A read outside a transaction in a GET request: a replica. */
    @GET
    @Path("server-id/read")
    public int read() {
        return serverIds.read();
    }

    /** The same read in a POST request: the primary (a POST's statements all run there). */
    @POST
    @Path("server-id/read")
    public int readInPost() {
        return serverIds.read();
    }

    @GET
    @Path("server-id/read-in-transaction")
    public int readInTransaction() {
        return serverIds.readInTransaction();
    }

    @GET
    @Path("server-id/locking-read")
    public int lockingRead() {
        return serverIds.lockingRead();
    }

    @GET
    @Path("server-id/read-replica")
    public int readOnReplica() {
        return serverIds.readOnReplica();
    }

    /** The read's server, a space, the locking read's server. */
    @GET
    @Path("server-id/read-only-transaction")
    public String readThenLockInReadOnlyTransaction() {
        return Arrays.stream(serverIds.readThenLockInReadOnlyTransaction()).mapToObj(Integer::toString)
                .collect(Collectors.joining(" "));
    }

    @GET
    @Path("stats")
    public String stats() {
        RoutingStatistics stats = RwSplit.statistics(factory);
        return "primary " + stats.primaryStatements() + ", replicas " + stats.replicaStatements() + ", by reason "
                + stats.byReason() + "\n";
    }
}
