package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.grant.Grant;
import java.util.List;

/**
 * The standing grants people made with "Approve and allow": listed for everyone who decides or supervises,
 * revoked by an admin or the person who made them, and switched off per agent by an admin. Grants are made with a
 * decision ({@link RunService#decide(Actor, String, String, List, Allowance)}).
 */
public interface Grants {

    /** The grants that have neither expired nor been revoked, newest first. Operators, supervisors and admins. */
    List<Grant> list(Actor actor);

    /**
     * Revokes a live grant; the loop no longer consults it.
     *
     * @return the grant as it was before
     * @throws IllegalArgumentException when no live grant has this id
     * @throws NotPermittedException    when the actor is neither an admin nor the grant's maker
     */
    Grant revoke(Actor actor, String grantId);

    /**
     * Switches an agent's grants off (its calls pause whatever grants exist) or back on. Admins.
     *
     * @return whether anything changed
     * @throws IllegalArgumentException when no agent has this name
     */
    boolean switchGrants(Actor actor, String agent, boolean on);

    /** The agents whose grants are switched off, by name. Operators, supervisors and admins. */
    List<String> switchedOff(Actor actor);
}
