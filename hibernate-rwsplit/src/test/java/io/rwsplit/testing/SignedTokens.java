package io.rwsplit.testing;

import io.rwsplit.position.ConsistencyToken;

/** What a signed token ({@code RwSplit.token}: {@code v2.<v1 form>.<signature>}) carries, for tests that look inside. */
public final class SignedTokens {

    private SignedTokens() {
    }

    /** The token inside {@code signed}, its signature not checked. */
    public static ConsistencyToken content(String signed) {
        if (!signed.startsWith("v2.")) {
            throw new IllegalArgumentException("not a signed token: " + signed);
        }
        return ConsistencyToken.decode(signed.substring(3, signed.lastIndexOf('.')));
    }
}
