package io.countersign.console.settings;

import io.countersign.console.common.Messages;
import io.countersign.service.RecordedChange;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * One recorded admin change as the history list shows it.
 *
 * @param when    date and time, in the console's zone
 * @param who     the admin who made it
 * @param setting what changed ("web_fetch · approval", "maria · roles")
 * @param change  old and new value ("needs approval → no approval")
 */
public record HistoryItem(long id, String when, String who, String setting, String change) {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("MMM d yyyy, HH:mm:ss");

    static HistoryItem of(RecordedChange recorded, Messages messages, ZoneId zone) {
        String key = recorded.settingKey();
        int separator = key.indexOf(':');
        String kind = separator < 0 ? key : key.substring(0, separator);
        String subject = separator < 0 ? "" : key.substring(separator + 1);
        String setting = switch (kind) {
            case "tool_enabled" -> messages.get("settings.history.toolEnabled", subject);
            case "group_enabled" -> messages.get("settings.history.groupEnabled", subject);
            case "approval" -> messages.get("settings.history.approval", subject);
            case "server_approval_bound" -> messages.get("settings.history.serverApproval", subject);
            case "tool_approval_bound" -> messages.get("settings.history.toolDeclaration", subject);
            case "allowed_hosts" -> messages.get("settings.history.allowedHosts", subject);
            case "user_roles" -> messages.get("settings.history.userRoles", subject);
            case "invocation_rule" -> messages.get("settings.history.rule", subject);
            case "telemetry" -> messages.get("settings.history.telemetry");
            // a kind a newer version records: shown as stored
            default -> key;
        };
        String change = messages.get("settings.history.change", value(kind, recorded.oldValue(), messages),
                value(kind, recorded.newValue(), messages));
        return new HistoryItem(recorded.id(), WHEN.format(recorded.time().atZone(zone)), recorded.actor(), setting,
                change);
    }

    private static String value(String kind, String value, Messages messages) {
        if (value == null) {
            return messages.get(switch (kind) {
                case "user_roles" -> "settings.history.newUser";
                case "server_approval_bound" -> "settings.history.notDeclared";
                case "tool_approval_bound" -> "settings.history.followsServer";
                case "invocation_rule" -> "settings.history.noRule";
                default -> "settings.history.default";
            });
        }
        boolean flag = value.equals("true");
        return switch (kind) {
            case "tool_enabled", "group_enabled" -> messages.get(flag ? "settings.value.on" : "settings.value.off");
            case "approval", "server_approval_bound", "tool_approval_bound" ->
                    messages.get(flag ? "settings.value.approval" : "settings.value.noApproval");
            case "user_roles" -> value.isEmpty() ? messages.get("users.noRole")
                    : value.replace(",", ", ");
            default -> value;
        };
    }
}
