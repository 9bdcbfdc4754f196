package io.rwsplit.demo.quarkus;

import java.net.URI;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** {@code /} leads to the notes. */
@Path("/")
public class HomeResource {

    @GET
    public Response home() {
        return Response.seeOther(URI.create("/notes")).build();
    }
}
