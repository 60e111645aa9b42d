package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.Webhook;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code webhooks}: list, add and remove the outgoing webhooks. */
final class WebhookCommands {

    private WebhookCommands() {
    }

    @Command(name = "webhooks", description = "The outgoing webhooks, each with its last delivery and the events"
            + " still to send. Admins only. See docs/webhooks.md.",
            subcommands = {Webhooks.ListHooks.class, Webhooks.Add.class, Webhooks.Remove.class,
                    Webhooks.Deliver.class})
    static final class Webhooks extends Subcommand {
        @Override
        public Integer call() {
            return list(this);
        }

        @Command(name = "list", description = "The outgoing webhooks, each with its last delivery. Admins only.")
        static final class ListHooks extends Subcommand {
            @Override
            public Integer call() {
                return list(this);
            }
        }

        @Command(name = "add", description = "Send the events of cards to a URL, each a CloudEvent signed with"
                + " HMAC-SHA256 (header Countersign-Signature), from whichever Countersign process runs. Admins only.")
        static final class Add extends Subcommand {
            @Parameters(paramLabel = "URL", description = "Where to POST the events: https://... (or http://).")
            String url;

            @Option(names = "--events", required = true, paramLabel = "E,...",
                    description = "Which events: waiting, decided, expired, escalated, comma-separated.")
            String events;

            @Option(names = "--secret", required = true, paramLabel = "env:NAME|file:PATH",
                    description = "Where the signing secret is kept; read when an event is sent, never stored.")
            String secret;

            @Option(names = "--slack", description = "Send a Slack-compatible text body ({\"text\": ...}) instead of"
                    + " a CloudEvent.")
            boolean slack;

            @Override
            public Integer call() {
                Webhook hook = runtime().webhooks().add(actor(), url, events, secret, slack);
                return print(view(hook).put("result", "added"));
            }
        }

        @Command(name = "remove", description = "Remove a webhook and the events still queued for it. Admins only.")
        static final class Remove extends Subcommand {
            @Parameters(paramLabel = "ID", description = "The webhook's id (see: countersign webhooks).")
            String id;

            @Override
            public Integer call() {
                if (!runtime().webhooks().remove(actor(), id)) {
                    throw CliFailure.refused("no webhook has the id \"" + id + "\" (see: countersign webhooks)");
                }
                return print(Views.object().put("id", id).put("result", "removed"));
            }
        }

        @Command(name = "deliver", description = "Send the events due now, once, and end: for cron, where no"
                + " console or worker runs (they deliver on their own). Retries fall due with their backoff.")
        static final class Deliver extends Subcommand {
            @Override
            public Integer call() {
                return print(Views.object().put("attempts", runtime().webhooks().deliverDue()));
            }
        }
    }

    private static int list(Subcommand command) {
        ArrayNode hooks = Views.array();
        for (HookStatus status : command.runtime().webhooks().list(command.actor())) {
            ObjectNode hook = view(status.hook());
            hook.put("lastDelivery", status.lastDelivery());
            if (status.lastAttempt() != null) {
                hook.put("lastAttempt", Views.time(status.lastAttempt()));
            }
            hook.put("pending", status.pending()).put("failed", status.failed());
            hooks.add(hook);
        }
        return command.print(hooks);
    }

    private static ObjectNode view(Webhook hook) {
        return Views.object().put("id", hook.id()).put("url", hook.url().toString()).put("events", hook.eventList())
                .put("secret", hook.secret().toString()).put("body", hook.slack() ? "slack" : "cloudevents");
    }
}
