package io.countersign.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.runtime.CelVariableResolver;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.declarative.CallFacts;
import io.countersign.engine.port.ConditionLanguage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Conditions in CEL, compiled and evaluated with {@code dev.cel:cel}: a typed environment of the call's facts
 * ({@link CallFacts#FIELDS}), a condition that must be a bool, arguments as a map of JSON values.
 */
public final class CelConditionLanguage implements ConditionLanguage {
    private static final String FIELDS = "the fields are tool, server, args, target (kind, id), agent, person, roles,"
            + " dataClass, trustZone, effect, now, history";
    /**
     * CEL's compiler and runtime, built on the first condition compiled: a process that judges or checks no
     * declarative rule never loads CEL, nor the protobuf and Guava classes under it (about 1,000 classes).
     */
    private static final class Cel {
        private static final MapType STRING_MAP = MapType.create(SimpleType.STRING, SimpleType.STRING);
        private static final MapType JSON_MAP = MapType.create(SimpleType.STRING, SimpleType.DYN);
        static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
                .addVar("tool", SimpleType.STRING)
                .addVar("server", SimpleType.STRING)
                .addVar("args", JSON_MAP)
                .addVar("target", STRING_MAP)
                .addVar("agent", SimpleType.STRING)
                .addVar("person", SimpleType.STRING)
                .addVar("roles", ListType.create(SimpleType.STRING))
                .addVar("dataClass", SimpleType.STRING)
                .addVar("trustZone", SimpleType.STRING)
                .addVar("effect", SimpleType.STRING)
                .addVar("now", SimpleType.TIMESTAMP)
                .addVar("history", ListType.create(JSON_MAP))
                .setResultType(SimpleType.BOOL)
                .build();
        static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();
    }

    @Override
    public Compilation compile(String source) {
        CelValidationResult result = Cel.COMPILER.compile(source);
        if (result.hasError()) {
            CelIssue issue = result.getAllIssues().get(0);
            String message = issue.getMessage().replace(" (in container '')", "");
            if (message.startsWith("undeclared reference")) {
                message = message + "; " + FIELDS;
            }
            return new Compilation.Invalid(Math.max(1, issue.getSourceLocation().getLine()),
                    issue.getSourceLocation().getColumn() + 1, message);
        }
        CelAbstractSyntaxTree ast;
        CelRuntime.Program program;
        try {
            ast = result.getAst();
            program = Cel.RUNTIME.createProgram(ast);
        } catch (Exception e) {
            return new Compilation.Invalid(1, 1, "the condition cannot be evaluated: " + e.getMessage());
        }
        boolean readsHistory = ast.getReferenceMap().values().stream()
                .anyMatch(reference -> reference.name().equals("history"));
        return new Compilation.Compiled(call -> evaluate(program, (CelBindings) call), readsHistory,
                toolGuard(ast.getExpr()));
    }

    /** The tool NAME of a conjunct {@code tool == 'NAME'} of the condition's top-level conjunction, or null. */
    private static String toolGuard(CelExpr expr) {
        if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.CALL) {
            return null;
        }
        CelExpr.CelCall call = expr.call();
        if (call.function().equals("_&&_")) {
            for (CelExpr operand : call.args()) {
                String tool = toolGuard(operand);
                if (tool != null) {
                    return tool;
                }
            }
            return null;
        }
        if (!call.function().equals("_==_") || call.args().size() != 2) {
            return null;
        }
        CelExpr left = call.args().get(0);
        CelExpr right = call.args().get(1);
        return isTool(left) ? text(right) : isTool(right) ? text(left) : null;
    }

    private static boolean isTool(CelExpr expr) {
        return expr.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT && expr.ident().name().equals("tool");
    }

    private static String text(CelExpr expr) {
        return expr.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && expr.constant().getKind() == CelConstant.Kind.STRING_VALUE ? expr.constant().stringValue() : null;
    }

    private static boolean evaluate(CelRuntime.Program program, CelBindings call) {
        Object result;
        try {
            // a resolver, not the map: the program reads the variables it uses and nothing is copied per call
            result = program.eval(call);
        } catch (CelEvaluationException e) {
            throw new ConditionFailedException(e.getMessage(), e);
        }
        if (!(result instanceof Boolean matched)) {
            throw new ConditionFailedException("the condition did not come to true or false", null);
        }
        return matched;
    }

    @Override
    public Bindings bind(CallFacts facts) {
        Map<String, Object> variables = new HashMap<>(16);
        variables.put("tool", facts.tool());
        variables.put("server", facts.server());
        variables.put("args", value(facts.args()));
        variables.put("target", target(facts.target()));
        variables.put("agent", facts.agent());
        variables.put("person", facts.person());
        variables.put("roles", facts.roles());
        variables.put("dataClass", facts.dataClass());
        variables.put("trustZone", facts.trustZone());
        variables.put("effect", facts.effect());
        variables.put("now", facts.now());
        variables.put("history", new LazyHistory(facts.history()));
        return new CelBindings(facts, variables);
    }

    private record CelBindings(CallFacts facts, Map<String, Object> variables)
            implements Bindings, CelVariableResolver {
        @Override
        public Optional<Object> find(String name) {
            return Optional.ofNullable(variables.get(name));
        }
    }

    private static Map<String, String> target(ToolInvocationTarget target) {
        return target == null ? Map.of("kind", "", "id", "") : Map.of("kind", target.kind(), "id", target.identifier());
    }

    /** A JSON value as CEL reads it: whole numbers as int, other numbers as double, objects as maps. */
    private static Object value(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> node.textValue();
            case BOOLEAN -> node.booleanValue();
            case NUMBER -> node.isIntegralNumber() && node.canConvertToLong() ? (Object) node.longValue()
                    : (Object) node.doubleValue();
            case ARRAY -> {
                List<Object> items = new ArrayList<>(node.size());
                node.forEach(item -> items.add(value(item)));
                yield items;
            }
            case OBJECT -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    fields.put(field.getKey(), value(field.getValue()));
                }
                yield fields;
            }
            default -> NullValue.NULL_VALUE;
        };
    }

    /** The history as a list of {tool, outcome, target}, converted only when a condition reads it. */
    private static final class LazyHistory extends java.util.AbstractList<Map<String, Object>> {
        private final List<ToolInvocationObservation> observations;

        LazyHistory(List<ToolInvocationObservation> observations) {
            this.observations = observations;
        }

        @Override
        public Map<String, Object> get(int index) {
            ToolInvocationObservation observation = observations.get(index);
            return Map.of("tool", observation.toolName(), "outcome", observation.outcome().code(),
                    "target", target(observation.target()));
        }

        @Override
        public int size() {
            return observations.size();
        }
    }
}
