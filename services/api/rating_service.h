// mancala.v1.RatingService: public ratings, leaderboards and histories.

#ifndef MANCALA_SERVICES_API_RATING_SERVICE_H_
#define MANCALA_SERVICES_API_RATING_SERVICE_H_

#include "mancala/v1/rating_service.grpc.pb.h"
#include "storage/store.h"

namespace mancala::services {

class RatingServiceImpl final : public v1::RatingService::Service {
 public:
  explicit RatingServiceImpl(storage::Store& store) : store_(store) {}

  grpc::Status GetRating(grpc::ServerContext* context,
                         const v1::GetRatingRequest* request,
                         v1::Rating* response) override;
  grpc::Status ListLeaderboard(grpc::ServerContext* context,
                               const v1::ListLeaderboardRequest* request,
                               v1::ListLeaderboardResponse* response) override;
  grpc::Status GetRatingHistory(
      grpc::ServerContext* context, const v1::GetRatingHistoryRequest* request,
      v1::GetRatingHistoryResponse* response) override;

 private:
  storage::Store& store_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_RATING_SERVICE_H_
