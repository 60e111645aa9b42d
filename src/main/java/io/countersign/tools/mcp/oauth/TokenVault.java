package io.countersign.tools.mcp.oauth;

import java.util.Optional;

/** Where a user's OAuth grants live: the operating system's credential store, or a file only the user can read. */
public interface TokenVault {
    Optional<StoredGrant> load(String server);

    void save(String server, StoredGrant grant);

    void remove(String server);

    /** Where the grants are kept, in words for a person, such as "the Secret Service (D-Bus)". */
    String description();
}
