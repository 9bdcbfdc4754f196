package io.rwsplit.quarkus.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** People over Quarkus REST, as a user writes it: no routing code. Each answer names the server that gave it. */
@Path("/people")
public class PeopleResource {

    @Inject
    People people;

    /** The person's name, or 404 when the server that answered has no such row. */
    @GET
    @Path("/{id}")
    public Response name(@PathParam("id") long id) {
        String name = people.nameOf(id);
        return name == null ? Response.status(Response.Status.NOT_FOUND).build() : Response.ok(name).build();
    }

    /**
     * A read-modify-write: reads person {@code readId} outside any transaction, then adds person {@code id}. Answers
     * the name it read, which tells the server that answered the read.
     */
    @POST
    @Path("/{id}")
    public String add(@PathParam("id") long id, @QueryParam("name") String name, @QueryParam("read") long readId) {
        String read = people.nameOf(readId);
        people.add(id, name);
        return read;
    }
}
