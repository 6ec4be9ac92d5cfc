// mancala.v1.RatingService: public ratings, leaderboards and histories.

#ifndef MANCALA_SERVICES_API_RATING_SERVICE_H_
#define MANCALA_SERVICES_API_RATING_SERVICE_H_

#include "mancala/v1/rating_service.grpc.pb.h"
#include "storage/store.h"

namespace mancala::services {

class RatingServiceImpl final {
 public:
  explicit RatingServiceImpl(storage::Store& store) : store_(store) {}

  grpc::Status GetRating(grpc::ServerContextBase* context,
                         const v1::GetRatingRequest* request,
                         v1::Rating* response);
  grpc::Status ListLeaderboard(grpc::ServerContextBase* context,
                               const v1::ListLeaderboardRequest* request,
                               v1::ListLeaderboardResponse* response);
  grpc::Status GetRatingHistory(
      grpc::ServerContextBase* context, const v1::GetRatingHistoryRequest* request,
      v1::GetRatingHistoryResponse* response);

 private:
  storage::Store& store_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_RATING_SERVICE_H_
