package io.rwsplit.demo.quarkus;

import java.net.URI;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The notes as HTML pages, post/redirect/get: the form posts a note, the answer redirects (303) to the note's page,
 * which the browser then loads, perhaps from another instance of the application. No routing code here: the
 * extension gives each request its consistency scope and the browser the cookie that carries it.
 */
@Path("/notes")
@Produces(MediaType.TEXT_HTML)
public class NoteResource {

    private static final int LIST_SIZE = 20;

    @Inject
    Notes notes;

    @GET
    public String list() {
        List<Note> newest = notes.newest(LIST_SIZE);
        StringBuilder body = new StringBuilder("""
                <form method="post" action="/notes">
                <input name="text" size="60" required autofocus> <button>Add</button>
                </form>
                <ul>
                """);
        for (Note note : newest) {
            body.append("<li><a href=\"/notes/").append(note.id()).append("\">").append(Html.escape(note.text()))
                    .append("</a></li>\n");
        }
        return Html.page("Notes", body.append("</ul>").toString());
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response add(@FormParam("text") String text) {
        if (text == null || text.isBlank()) {
            return Response.status(Response.Status.BAD_REQUEST).entity(Html.page("No text", "<p>A note needs a text.</p>"))
                    .build();
        }
        Note note = notes.add(text.strip());
        return Response.seeOther(URI.create("/notes/" + note.id())).build();
    }

    @GET
    @Path("/{id}")
    public Response show(@PathParam("id") long id) {
        return notes.find(id)
                .map(note -> Response.ok(Html.page("Note " + id, "<p class=\"text\">" + Html.escape(note.text())
                        + "</p>\n<p>written " + note.created() + "</p>\n<p><a href=\"/notes\">all notes</a></p>")))
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND)
                        .entity(Html.page("No note " + id, "<p><a href=\"/notes\">all notes</a></p>")))
                .build();
    }
}
