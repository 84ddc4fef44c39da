// benchguard ack | unack: a known change point stops (or starts again) failing the gate.
#include <fmt/format.h>

#include <algorithm>

#include "cli/app.hpp"
#include "cli/history_flags.hpp"
#include "core/names.hpp"

namespace benchguard::cli {
namespace {

Action add_ack_cmd(CLI::App& app, Context& ctx, bool ack) {
  auto* c = app.add_subcommand(ack ? "ack" : "unack",
                               ack ? "Acknowledge a change point: it no longer fails the gate"
                                   : "Take an acknowledgement back");
  auto id = std::make_shared<std::string>();
  auto reason = std::make_shared<std::string>();
  c->add_option("change", *id, "The change point's id (from `detect`)")->required();
  if (ack) c->add_option("--reason", *reason, "Why it is accepted");
  return [&ctx, id, reason, ack]() -> Result<int> {
    BG_TRY(check_name("change id", *id));
    if (!reason->empty()) BG_TRY(check_name("--reason", *reason));
    BG_ASSIGN(auto store, ctx.open_store());
    if (!ack) {
      BG_ASSIGN(bool removed, store->remove_ack(*id));
      ctx.out << (removed ? fmt::format("{}: acknowledgement removed\n", *id)
                          : fmt::format("{}: was not acknowledged\n", *id));
      return 0;
    }
    BG_TRY(find_change(ctx.db_name(), *store, *id));
    BG_ASSIGN(bool fresh, store->set_ack({*id, *reason, now_ns()}));
    ctx.out << fmt::format("{}: {}\n", *id, fresh ? "acknowledged" : "already acknowledged");
    return 0;
  };
}

}  // namespace

Action add_ack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, true);
}
Action add_unack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, false);
}

}  // namespace benchguard::cli
